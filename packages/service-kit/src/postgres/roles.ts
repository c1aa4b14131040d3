// One database role per service (ADR 0039): the schema's owner, which only the migrations log in as, and the
// service's own role, which reads and writes the rows of its schema and nothing else. The bootstrap below runs as
// a superuser once per start or deployment (npm start, compose's db-roles step, Kubernetes' migrate Job, the
// tests), so nothing a service runs needs more: pg_trgm is made here, not by the search index at run time.
import pg from 'pg';
import { assertSchemaName } from './migrate.ts';

/** A service's recorded events (ADR 0042): its outbox and its cursors over others', `post_events`. */
export const eventsSchemaOf = (service: string) => `${service}_events`;

/**
 * The schemas each service owns: its tables, its recorded events, and (org, profile, post) its Postgres search
 * index; and whose recorded events it reads (ADR 0042).
 */
export const SERVICE_SCHEMAS = {
  auth: { schema: 'auth', eventsSchema: 'auth_events' },
  profile: {
    schema: 'profile',
    searchSchema: 'profile_search',
    eventsSchema: 'profile_events',
    readsEventsOf: ['auth'],
  },
  org: { schema: 'org', searchSchema: 'org_search', eventsSchema: 'org_events' },
  post: { schema: 'post', searchSchema: 'post_search', eventsSchema: 'post_events', readsEventsOf: ['auth'] },
  news: { schema: 'news', eventsSchema: 'news_events' },
  notification: {
    schema: 'notification',
    eventsSchema: 'notification_events',
    readsEventsOf: ['post', 'profile', 'auth'],
  },
} as const satisfies Record<
  string,
  { schema: string; searchSchema?: string; eventsSchema: string; readsEventsOf?: readonly string[] }
>;

export type DatabaseService = keyof typeof SERVICE_SCHEMAS;

/** A service's two roles' names: `profile` (the service's) and `profile_owner` (its migrations'). */
export const serviceRoleNames = (service: string) => ({ app: service, owner: `${service}_owner` });

export interface RoleLogin {
  user: string;
  password: string;
}

export interface ServiceRolesSpec {
  /** The schema of the service's tables, owned by `owner`; `app` may read and write their rows only. */
  schema: string;
  /**
   * The schema of its search index, owned by `app`: the index builds and swaps its tables at run time (ADR 0024),
   * from rows the service holds anyway.
   */
  searchSchema?: string | undefined;
  /**
   * The schema of its recorded events (outbox, cursors), owned by `app`, which makes the tables at start; the
   * services declared as its readers may read it, nobody else.
   */
  eventsSchema?: string | undefined;
  /** The services whose events schemas (`<service>_events`) `app` reads. */
  readsEventsOf?: readonly string[] | undefined;
  owner: RoleLogin;
  app: RoleLogin;
  /** Roles given both (npm start's `rotunda`, which the operator's tools log in as). */
  operators?: readonly string[];
}

const ident = (name: string) => pg.escapeIdentifier(name);
const literal = (text: string) => pg.escapeLiteral(text);

async function ensureLogin(client: pg.ClientBase, { user, password }: RoleLogin): Promise<void> {
  const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [user]);
  // Never more than a login: no superuser, no new databases or roles, row security applies.
  const attributes = `LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${literal(password)}`;
  await client.query(`${exists.rowCount ? 'ALTER' : 'CREATE'} ROLE ${ident(user)} ${attributes}`);
}

/**
 * The role a producer's events schema grants reading to, and its readers are members of: either bootstrap may run
 * first (each makes it when missing), and a reader added later needs no change to the producer.
 */
const eventReadersOf = (eventsSchema: string) => `${eventsSchema}_readers`;

async function ensureGroup(client: pg.ClientBase, name: string): Promise<void> {
  const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [name]);
  if (!exists.rowCount)
    await client.query(`CREATE ROLE ${ident(name)} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS`);
}

/**
 * Gives every object of `schema` to `role`: a database that ran before the roles existed (everything owned by
 * one role) is adopted as it stands. Sequences owned by a column follow their table.
 */
async function adopt(client: pg.ClientBase, schema: string, role: string): Promise<void> {
  await client.query(`ALTER SCHEMA ${ident(schema)} OWNER TO ${ident(role)}`);
  const relations = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
       WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
         AND pg_get_userbyid(c.relowner) <> $2
         AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                           AND d.refobjsubid > 0 AND d.deptype IN ('a', 'i'))`,
    [schema, role],
  );
  for (const { name } of relations.rows)
    await client.query(`ALTER TABLE ${ident(schema)}.${ident(name)} OWNER TO ${ident(role)}`);
  const functions = await client.query<{ signature: string }>(
    `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
       WHERE p.pronamespace = $1::regnamespace AND pg_get_userbyid(p.proowner) <> $2`,
    [schema, role],
  );
  for (const { signature } of functions.rows)
    await client.query(`ALTER ROUTINE ${signature} OWNER TO ${ident(role)}`);
}

/**
 * Makes (or brings up to date) a service's roles, schemas and grants in the database `client` is connected to,
 * as a superuser. Idempotent, and safe beside other bootstraps: roles are shared by every database of the
 * server, so one bootstrap runs at a time.
 */
export async function ensureServiceRoles(client: pg.ClientBase, spec: ServiceRolesSpec): Promise<void> {
  const schema = ident(assertSchemaName(spec.schema));
  const owner = ident(spec.owner.user);
  const app = ident(spec.app.user);
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('rotunda.roles'))");
    await ensureLogin(client, spec.owner);
    await ensureLogin(client, spec.app);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema} AUTHORIZATION ${owner}`);
    await adopt(client, spec.schema, spec.owner.user);
    await client.query(`REVOKE ALL ON SCHEMA ${schema} FROM PUBLIC`);
    await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${app}`);
    await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${app}`);
    await client.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${app}`);
    // What later migrations create, the service may use the same way.
    await client.query(
      `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA ${schema} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${app}`,
    );
    await client.query(
      `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA ${schema} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${app}`,
    );
    if (spec.searchSchema) {
      const search = ident(assertSchemaName(spec.searchSchema));
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${search} AUTHORIZATION ${app}`);
      await adopt(client, spec.searchSchema, spec.app.user);
      await client.query(`REVOKE ALL ON SCHEMA ${search} FROM PUBLIC`);
    }
    if (spec.eventsSchema) {
      const events = ident(assertSchemaName(spec.eventsSchema));
      const readers = ident(eventReadersOf(spec.eventsSchema));
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${events} AUTHORIZATION ${app}`);
      await adopt(client, spec.eventsSchema, spec.app.user);
      await client.query(`REVOKE ALL ON SCHEMA ${events} FROM PUBLIC`);
      await ensureGroup(client, eventReadersOf(spec.eventsSchema));
      await client.query(`GRANT USAGE ON SCHEMA ${events} TO ${readers}`);
      await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${events} TO ${readers}`);
      // The service makes its outbox at run time: readers may read it however late that is.
      await client.query(
        `ALTER DEFAULT PRIVILEGES FOR ROLE ${app} IN SCHEMA ${events} GRANT SELECT ON TABLES TO ${readers}`,
      );
    }
    for (const producer of spec.readsEventsOf ?? []) {
      const readers = eventReadersOf(eventsSchemaOf(assertSchemaName(producer)));
      await ensureGroup(client, readers);
      await client.query(`GRANT ${ident(readers)} TO ${app}`);
    }
    // The search index's trigram operators; a trusted extension, but making it needs CREATE on the database.
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    for (const operator of spec.operators ?? []) {
      await client.query(`GRANT ${owner}, ${app} TO ${ident(operator)}`);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** A database URL like `url`, logged in as `login` instead. */
export function databaseUrlAs(url: string, login: RoleLogin): string {
  const as = new URL(url);
  as.username = encodeURIComponent(login.user);
  as.password = encodeURIComponent(login.password);
  return as.toString();
}

/**
 * A service's two roles as `npm start` and the tests make them, as the superuser `admin` connected to the
 * database `databaseUrl` names: each password is its role's name (embedded PostgreSQL listens on loopback only,
 * as the services' default DATABASE_URL expects). Answers the URLs the service runs (url) and migrates (migrationUrl) as.
 */
export async function ensureEmbeddedServiceRoles(
  admin: pg.ClientBase,
  databaseUrl: string,
  service: DatabaseService,
  operators?: readonly string[],
): Promise<{ url: string; migrationUrl: string }> {
  const names = serviceRoleNames(service);
  const app = { user: names.app, password: names.app };
  const owner = { user: names.owner, password: names.owner };
  await ensureServiceRoles(admin, {
    ...SERVICE_SCHEMAS[service],
    app,
    owner,
    ...(operators ? { operators } : {}),
  });
  return { url: databaseUrlAs(databaseUrl, app), migrationUrl: databaseUrlAs(databaseUrl, owner) };
}
