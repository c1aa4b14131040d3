// A record's field under its two spellings: the REST bodies, answers and gRPC messages' (first_name) and the
// services' and schemas' (firstName). The field tables (profile-fields.ts, job-fields.ts) are keyed by the
// first and derive the second, in types and at run time alike.

/** first_name → firstName, as a type. */
export type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

/** first_name → firstName. */
export const camelName = <N extends string>(name: N): Camel<N> =>
  name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) as Camel<N>;
