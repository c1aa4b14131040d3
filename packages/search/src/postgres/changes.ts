// How every write to a Postgres index tells the in-memory copies of it (replica.ts) what changed: a NOTIFY on the
// index's channel, in the write's own transaction, with the ids it changed.
import type pg from 'pg';

/**
 * The channel every write to an index notifies, in its own transaction, with the ids it changed (a JSON list; '*'
 * after clear() and a rebuild's switch): how the in-memory copies of the index (replica.ts) learn of every writer's changes, a replica's,
 * a reindex's or a seed's. Postgres truncates channel names at 63 bytes; it is quoted where listened to.
 */
export const changeChannelOf = (schema: string, index: string) =>
  `search_changes.${schema}.${index}`.slice(0, 63);

/** NOTIFY payloads must stay under 8,000 bytes; ids are listed in chunks below that. */
const NOTIFY_PAYLOAD_BYTES = 7000;

/** The ids as JSON lists of at most NOTIFY_PAYLOAD_BYTES each. */
function changePayloads(ids: string[]): string[] {
  const payloads: string[] = [];
  let chunk: string[] = [];
  let bytes = 2;
  for (const id of ids) {
    const size = Buffer.byteLength(JSON.stringify(id)) + 1;
    if (chunk.length > 0 && bytes + size > NOTIFY_PAYLOAD_BYTES) {
      payloads.push(JSON.stringify(chunk));
      chunk = [];
      bytes = 2;
    }
    chunk.push(id);
    bytes += size;
  }
  if (chunk.length > 0) payloads.push(JSON.stringify(chunk));
  return payloads;
}

/** The payload clear() and a rebuild's switch notify: every document changed. */
export const EVERYTHING_CHANGED = '*';

/** Sent on commit only, so a replica reading the ids then sees this write. */
export async function notifyChanges(
  client: pg.ClientBase,
  channel: string,
  ids: string[] | typeof EVERYTHING_CHANGED,
): Promise<void> {
  const payloads = ids === EVERYTHING_CHANGED ? [EVERYTHING_CHANGED] : changePayloads(ids);
  for (const payload of payloads) await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
}
