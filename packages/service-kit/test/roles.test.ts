// Least privilege between services (ADR 0039), on the real schemas: each service migrates as its schema's owner
// and runs as a role that reads and writes its own rows only. A compromised service cannot read another's
// signing keys, rewrite another's rows, change its own tables' shape, or become anyone else in the database.
import { join } from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger, migrate, serviceRoleNames } from '../src/index.ts';
import { createServiceRoles, createTestDatabase } from '../src/testing/index.ts';

const logger = createLogger('test', 'silent');
const servicesDir = join(import.meta.dirname, '../../../services');
const SERVICES = ['auth', 'profile', 'org'] as const;

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
const outcome = (url: string, sql: string, params: unknown[] = []) =>
  as(url, (client) => client.query(sql, params)).then(
    () => 'ok',
    (error: { code?: string }) => error.code ?? String(error),
  );

describe('one database role per service', () => {
  let superuser: string;
  const urls = {} as Record<(typeof SERVICES)[number], { appUrl: string; ownerUrl: string }>;

  beforeAll(async () => {
    superuser = await createTestDatabase();
    for (const service of SERVICES) {
      urls[service] = await createServiceRoles(superuser, service);
      await migrate({
        databaseUrl: urls[service].ownerUrl,
        schema: service,
        migrationsDir: join(servicesDir, service, 'prisma/migrations'),
        logger,
      });
    }
    await as(superuser, async (client) => {
      await client.query(
        `INSERT INTO auth.signing_keys (kid, private_jwk, public_jwk) VALUES ('k1', '{"d": "secret"}', '{}')`,
      );
      await client.query(
        `INSERT INTO profile.profiles (profile_id, first_name, last_name, work_email, updated_at)
           VALUES (1, 'Ada', 'Lovelace', 'ada@demo.ca.gov', now())`,
      );
    });
  }, 120_000);

  it('migrations ran as the schema owner, who owns every table in it', async () => {
    const owners = await as(superuser, (client) =>
      client.query<{ schema: string; owner: string }>(
        `SELECT DISTINCT schemaname AS schema, tableowner AS owner FROM pg_tables
           WHERE schemaname = ANY($1) ORDER BY 1`,
        [[...SERVICES]],
      ),
    );
    expect(owners.rows).toEqual(
      [...SERVICES].sort().map((schema) => ({ schema, owner: serviceRoleNames(schema).owner })),
    );
  });

  it("a service's role reads and writes its own rows", async () => {
    const { appUrl } = urls.profile;
    expect(
      await outcome(appUrl, "UPDATE profile.profiles SET first_name = 'Augusta' WHERE profile_id = 1"),
    ).toBe('ok');
    const names = await as(appUrl, (client) =>
      client.query('SELECT first_name FROM profile.profiles WHERE profile_id = 1'),
    );
    expect(names.rows).toEqual([{ first_name: 'Augusta' }]);
  });

  it("cannot read another service's schema: profile's role is refused auth's signing keys", async () => {
    expect(await outcome(urls.profile.appUrl, 'SELECT private_jwk FROM auth.signing_keys')).toBe(DENIED);
    expect(await outcome(urls.org.appUrl, 'SELECT * FROM auth.signing_keys')).toBe(DENIED);
  });

  it("cannot write another service's schema: profile's role is refused org's rows, org's role profile's", async () => {
    expect(await outcome(urls.profile.appUrl, "UPDATE org.organizations SET organization_name = 'x'")).toBe(
      DENIED,
    );
    expect(await outcome(urls.org.appUrl, 'UPDATE profile.profiles SET user_id = gen_random_uuid()')).toBe(
      DENIED,
    );
    expect(await outcome(urls.org.appUrl, 'DELETE FROM auth.signing_keys')).toBe(DENIED);
  });

  it("another service's owner role is no better: it owns its own schema only", async () => {
    expect(await outcome(urls.org.ownerUrl, 'SELECT * FROM auth.signing_keys')).toBe(DENIED);
    expect(await outcome(urls.org.ownerUrl, 'SELECT * FROM profile.profiles')).toBe(DENIED);
  });

  it("a service's role cannot change its own tables' shape, make schemas or become another role", async () => {
    const { appUrl } = urls.profile;
    expect(await outcome(appUrl, 'ALTER TABLE profile.profiles ADD COLUMN x text')).toBe(DENIED);
    expect(await outcome(appUrl, 'DROP TABLE profile.profiles')).toBe(DENIED);
    expect(await outcome(appUrl, 'CREATE TABLE profile.extra (id int)')).toBe(DENIED);
    expect(await outcome(appUrl, 'CREATE SCHEMA elsewhere')).toBe(DENIED);
    expect(await outcome(appUrl, 'SET ROLE auth')).toBe(DENIED);
    expect(await outcome(appUrl, 'SET ROLE profile_owner')).toBe(DENIED);
    const attributes = await as(superuser, (client) =>
      client.query<{ rolsuper: boolean; rolcreatedb: boolean; rolcreaterole: boolean }>(
        'SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = ANY($1)',
        [SERVICES.flatMap((service) => Object.values(serviceRoleNames(service)))],
      ),
    );
    expect(attributes.rows).toHaveLength(SERVICES.length * 2);
    for (const row of attributes.rows)
      expect(row).toEqual({ rolsuper: false, rolcreatedb: false, rolcreaterole: false });
  });

  it('a later migration’s table is open to the service’s role at once (default privileges)', async () => {
    await as(urls.profile.ownerUrl, (client) =>
      client.query('CREATE TABLE profile.later (id serial PRIMARY KEY)'),
    );
    expect(await outcome(urls.profile.appUrl, 'INSERT INTO profile.later DEFAULT VALUES')).toBe('ok');
    expect(await outcome(urls.org.appUrl, 'SELECT * FROM profile.later')).toBe(DENIED);
  });

  it('gives a service its events schema; a declared reader reads its tables, made later, others are refused', async () => {
    await as(urls.auth.appUrl, (client) =>
      client.query('CREATE TABLE auth_events.outbox (id int, topic text)'),
    );
    // Profile reads auth's recorded events (ADR 0042); org reads nobody's.
    expect(await outcome(urls.profile.appUrl, 'SELECT * FROM auth_events.outbox')).toBe('ok');
    expect(await outcome(urls.profile.appUrl, "INSERT INTO auth_events.outbox VALUES (1, 'x')")).toBe(DENIED);
    expect(await outcome(urls.org.appUrl, 'SELECT * FROM auth_events.outbox')).toBe(DENIED);
    expect(await outcome(urls.auth.ownerUrl, 'SELECT * FROM auth_events.outbox')).toBe(DENIED);
    expect(await outcome(urls.profile.appUrl, 'CREATE TABLE auth_events.extra (id int)')).toBe(DENIED);
  });

  it('is idempotent and adopts a database whose objects one role made before the roles existed', async () => {
    const database = await createTestDatabase();
    await migrate({
      databaseUrl: database,
      schema: 'profile',
      migrationsDir: join(servicesDir, 'profile/prisma/migrations'),
      logger,
    });
    await as(database, (client) =>
      client.query('CREATE SCHEMA profile_search; CREATE TABLE profile_search.people (id text)'),
    );
    const first = await createServiceRoles(database, 'profile');
    const second = await createServiceRoles(database, 'profile');
    expect(second).toEqual(first);
    expect(
      await outcome(
        first.appUrl,
        "INSERT INTO profile.profiles (first_name, last_name, work_email, updated_at) VALUES ('a', 'b', 'c', now())",
      ),
    ).toBe('ok');
    expect(await outcome(first.appUrl, 'DROP TABLE profile_search.people')).toBe('ok');
    expect(
      await migrate({
        databaseUrl: first.ownerUrl,
        schema: 'profile',
        migrationsDir: join(servicesDir, 'profile/prisma/migrations'),
        logger,
      }),
    ).toEqual([]);
  });
});
