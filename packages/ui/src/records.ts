// The shapes of records the gateway answers that more than one app reads: an address as a stored organization
// or division holds it, and a division (an office, board or bureau of an organization,
// docs/product.md#3-entities-and-their-fields Division).
import type { AddressFieldName } from '@rotunda/rules';

/** Null where not given; the address rows of @rotunda/rules' organization table. */
export type StoredAddress = Record<AddressFieldName, string | null>;

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
