// The rebuild lock: a Postgres session-level advisory lock keyed by the index's name, held on a connection of its
// own for the whole rebuild. Whichever engine holds the index, one process rebuilds it at a time; a process that
// dies mid-rebuild loses its session, and with it the lock.
import pg from 'pg';

export interface HeldLock {
  release(): Promise<void>;
}

/** Takes the lock if it is free; undefined when another session holds it. */
export async function tryRebuildLock(databaseUrl: string, name: string): Promise<HeldLock | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  // A dropped connection frees the lock on the server; the rebuild's next statement on it then fails.
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
      [`rotunda-search-rebuild:${name}`],
    );
    if (rows[0]?.locked) return { release: () => client.end().catch(() => {}) };
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  await client.end();
  return undefined;
}
