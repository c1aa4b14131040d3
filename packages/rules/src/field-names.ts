// A record's field under its two spellings: the REST bodies, answers and gRPC messages' (first_name) and the
// services' and schemas' (firstName). The field tables (profile-fields.ts, job-fields.ts) are keyed by the
// first and derive the second, in types and at run time alike, and map a record's fields between the two.

/** first_name → firstName, as a type. */
export type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

/** first_name → firstName. */
export const camelName = <N extends string>(name: N): Camel<N> =>
  name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) as Camel<N>;

/**
 * The named fields of a message or event (REST names) under the services' names, absent ones null: the
 * mapping every copy of another service's record makes (e.g. a division's DIVISION_FIELD_NAMES). A name the
 * message lacks does not compile.
 */
export function fieldsByKey<M, N extends keyof M & string>(
  names: readonly N[],
  message: M,
): Record<Camel<N>, string | null> {
  return Object.fromEntries(
    names.map((name) => [camelName(name), (message[name] as string | null | undefined) ?? null]),
  ) as Record<Camel<N>, string | null>;
}

/** The reverse, for a gRPC message: the services' values under the REST names, null ones absent. */
export function fieldsByName<N extends string>(
  names: readonly N[],
  values: Readonly<Record<Camel<N>, string | null>>,
): Partial<Record<N, string>> {
  return Object.fromEntries(
    names.flatMap((name) => {
      const value = values[camelName(name)];
      return value === null ? [] : [[name, value]];
    }),
  ) as Partial<Record<N, string>>;
}
