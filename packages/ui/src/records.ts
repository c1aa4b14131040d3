// The shapes of records the gateway answers that more than one app reads: an address as a stored organization
// or division holds it, and a division (an office, board or bureau of an organization,
// docs/product.md#3-entities-and-their-fields Division).

/** Null where not given. */
export interface StoredAddress {
  street_address: string | null;
  suite_number: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
}

export interface Division extends StoredAddress {
  division_id: number;
  division_name: string;
  division_type: string;
  active_division: boolean;
  organization_id: number;
  /** Given by the division-name lookup, to tell apart offices of the same name. */
  organization_name?: string;
  division_phone: string | null;
  website: string | null;
}
