// What the post schema's Prisma adapters share: raw SQL names its schema itself (Prisma qualifies only its own
// queries with the adapter's), instants read as epoch milliseconds in JSON, who may see a moderated row
// (visibility.ts in SQL), Prisma's known-error test, the outbox writes go with (ADR 0042) and the mentions rows
// read with their names.
import { type DomainEvent, eventsSchemaOf, type RawExecutor, recordEvent } from '@rotunda/events';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Mention } from '../domain/post.ts';
import type { ModerationMark, ModerationState, Viewer } from '../domain/visibility.ts';

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

/**
 * The rows of `alias` (a post or comment) `viewer` may see: visible ones, and hidden ones for contributors and their
 * author (visibility.ts canSee).
 */
export const visibleTo = (alias: string, viewer: Viewer) =>
  Prisma.sql`(${Prisma.raw(alias)}.moderation_state = 'visible' OR (${Prisma.raw(alias)}.moderation_state = 'hidden'
    AND (${viewer.contributor} OR ${Prisma.raw(alias)}.user_id = ${viewer.userId}::text)))`;

/** The same, as text for a statement built by hand with the viewer's user id and role as parameters. */
export const visibleToParams = (alias: string, userIdParam: string, contributorParam: string) =>
  `(${alias}.moderation_state = 'visible' OR (${alias}.moderation_state = 'hidden'
    AND (${contributorParam}::boolean OR ${alias}.user_id = ${userIdParam}::text)))`;

/** A row's moderation columns, as the rules read them. */
export const moderationOf = (row: {
  modState: string;
  modReason: string | null;
  modAutomatic: boolean;
}): ModerationMark => ({
  state: row.modState as ModerationState,
  reason: row.modReason,
  automatic: row.modAutomatic,
});

/** The post service's outbox schema (its own role's, made at start by ensureEventTables). */
export const POST_EVENTS = eventsSchemaOf('post');

/** Records the events in the caller's transaction: they leave only if it commits. */
export async function recordAll(tx: RawExecutor, events: readonly DomainEvent[]): Promise<void> {
  for (const event of events) await recordEvent(tx, POST_EVENTS, event);
}

/**
 * The mentions of the row `alias.key` in `mentionsTable` as a JSON array of {profileId, firstName, lastName} in the
 * order written, only those the read copy of authors holds (text for a statement built by hand).
 */
export const mentionsJson = (mentionsTable: string, authorsTable: string, key: string, alias: string) => `
  coalesce((SELECT json_agg(json_build_object('profileId', m.profile_id, 'firstName', ma.first_name,
                                              'lastName', ma.last_name) ORDER BY m.position)
            FROM ${mentionsTable} m JOIN ${authorsTable} ma ON ma.profile_id = m.profile_id
            WHERE m.${key} = ${alias}.${key}), '[]'::json)`;

/** Mentions as the rules read them, whether the driver parsed the JSON or not. */
export const mentionsOf = (value: unknown): Mention[] =>
  (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as Mention[];
