// Who may read recorded events (ADR 0042), with the roles the bootstrap makes: a service's role owns its events
// schema and makes its tables at start; the services declared as its readers may read its outbox (tables made
// after the bootstrap included), never write it, and never read the producer's other tables; nobody else may.
import { createServiceRoles, createTestDatabase } from '@rotunda/service-kit/testing';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureEventTables, type RawExecutor, recordEvent } from '../src/index.ts';

/** Postgres' insufficient_privilege. */
const DENIED = '42501';

async function as<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The SQLSTATE a statement fails with, or 'ok'. */
const outcome = (url: string, sql: string) =>
  as(url, (client) => client.query(sql)).then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? String(error),
  );

const executor = (client: pg.Client): RawExecutor => ({
  $executeRawUnsafe: (query, ...values) => client.query(query, values).then((result) => result.rowCount ?? 0),
});

describe('reading recorded events', () => {
  let superuser: string;
  const urls = {} as Record<'auth' | 'post' | 'notification' | 'org', { appUrl: string; ownerUrl: string }>;

  beforeAll(async () => {
    superuser = await createTestDatabase();
    // The reader first: its grant must not depend on which bootstrap runs first.
    urls.notification = await createServiceRoles(superuser, 'notification');
    urls.post = await createServiceRoles(superuser, 'post');
    urls.auth = await createServiceRoles(superuser, 'auth');
    urls.org = await createServiceRoles(superuser, 'org');
    // Each service makes its tables at start, as its own role, after the bootstrap.
    for (const service of ['post', 'auth', 'notification'] as const)
      await ensureEventTables(urls[service].appUrl, `${service}_events`);
    await as(urls.post.ownerUrl, (client) => client.query('CREATE TABLE post.posts (id int, body text)'));
    await as(urls.post.appUrl, async (client) => {
      await client.query('BEGIN');
      await recordEvent(executor(client), 'post_events', { topic: 'account.deleted', user_id: 'u1' });
      await client.query('COMMIT');
    });
  }, 120_000);

  it("lets a declared reader read the producer's outbox", async () => {
    const rows = await as(urls.notification.appUrl, (client) =>
      client.query("SELECT topic, payload->>'user_id' AS user_id FROM post_events.outbox"),
    );
    expect(rows.rows).toEqual([{ topic: 'account.deleted', user_id: 'u1' }]);
    expect(await outcome(urls.post.appUrl, 'SELECT * FROM auth_events.outbox')).toBe('ok');
  });

  it("refuses a reader the producer's other tables and any write to its outbox", async () => {
    const reader = urls.notification.appUrl;
    expect(await outcome(reader, 'SELECT * FROM post.posts')).toBe(DENIED);
    expect(await outcome(reader, 'DELETE FROM post_events.outbox')).toBe(DENIED);
    expect(
      await outcome(
        reader,
        "INSERT INTO post_events.outbox (topic, payload) VALUES ('account.deleted', '{}')",
      ),
    ).toBe(DENIED);
    expect(await outcome(reader, 'UPDATE post_events.cursors SET id = 0')).toBe(DENIED);
    expect(await outcome(reader, 'DROP TABLE post_events.outbox')).toBe(DENIED);
  });

  it('refuses everyone who is not a declared reader', async () => {
    expect(await outcome(urls.org.appUrl, 'SELECT * FROM post_events.outbox')).toBe(DENIED);
    expect(await outcome(urls.org.appUrl, 'SELECT * FROM auth_events.outbox')).toBe(DENIED);
    // Post reads auth's events, not notification's; auth reads nobody's.
    expect(await outcome(urls.post.appUrl, 'SELECT * FROM notification_events.outbox')).toBe(DENIED);
    expect(await outcome(urls.auth.appUrl, 'SELECT * FROM post_events.outbox')).toBe(DENIED);
  });

  it('gives the producer its events schema and nothing to its migrations role', async () => {
    const owners = await as(superuser, (client) =>
      client.query<{ schema: string; owner: string }>(
        `SELECT n.nspname AS schema, pg_get_userbyid(n.nspowner) AS owner FROM pg_namespace n
           WHERE n.nspname LIKE '%\\_events' ORDER BY 1`,
      ),
    );
    expect(owners.rows).toEqual(
      ['auth', 'notification', 'org', 'post'].map((service) => ({
        schema: `${service}_events`,
        owner: service,
      })),
    );
    expect(await outcome(urls.post.ownerUrl, 'SELECT * FROM post_events.outbox')).toBe(DENIED);
  });

  it('adopts events tables made before the roles existed, and stays idempotent', async () => {
    const database = await createTestDatabase();
    await ensureEventTables(database, 'post_events');
    const post = await createServiceRoles(database, 'post');
    const notification = await createServiceRoles(database, 'notification');
    expect(await createServiceRoles(database, 'post')).toEqual(post);
    expect(
      await outcome(post.appUrl, "INSERT INTO post_events.outbox (topic, payload) VALUES ('x', '{}')"),
    ).toBe('ok');
    expect(await outcome(notification.appUrl, 'SELECT * FROM post_events.outbox')).toBe('ok');
  });
});
