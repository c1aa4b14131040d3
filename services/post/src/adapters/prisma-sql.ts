// What the post schema's Prisma adapters share: raw SQL names its schema itself (Prisma qualifies only its own
// queries with the adapter's), instants read as epoch milliseconds in JSON, and Prisma's known-error test.
import { Prisma } from '../../generated/prisma/client.ts';

/** The schema's tables, as a raw query's fragment (`table`) or as text in a statement built by hand (`qualified`). */
export function schemaTables(schema: string) {
  return {
    table: (name: string) => Prisma.raw(`"${schema}"."${name}"`),
    qualified: (name: string) => `"${schema}"."${name}"`,
  };
}

export type SchemaTables = ReturnType<typeof schemaTables>;

/** An instant as epoch milliseconds in JSON (exact for timestamptz(3)), whatever the session's time zone. */
export const epochMs = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)`;

export const isKnownError = (error: unknown, code: string) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === code;
