// A postal address as the forms take it (docs/product.md#5-validation-rules): street address, suite, city,
// state and ZIP code, each null when not given. Street, suite and city are title-cased and the state
// upper-cased (title-case.ts, state.ts).

export interface PostalAddress {
  streetAddress: string | null;
  suiteNumber: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
}
