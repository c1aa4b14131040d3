// The database's roles, made once before anything migrates (ADR 0039): each service's schema owner and its own
// role from the URLs it is given (<SERVICE>_MIGRATION_DATABASE_URL, <SERVICE>_DATABASE_URL: their user names
// and passwords), and Keycloak's role and database when KEYCLOAK_DATABASE_URL names them. Runs as the superuser
// of POSTGRES_ADMIN_URL, which no service is given: compose's db-roles step and the migrate Job's first
// container, `node /app/docker/db-roles.ts`. Idempotent: a later run sets the passwords the URLs carry.
import {
  createLogger,
  type DatabaseService,
  ensureServiceRoles,
  envPostgresUrl,
  loadConfigOrExit,
  type RoleLogin,
  SERVICE_SCHEMAS,
} from '@rotunda/service-kit';
import pg from 'pg';
import { z } from 'zod';

const url = envPostgresUrl();
const services = Object.keys(SERVICE_SCHEMAS) as DatabaseService[];
const schema = z.object({
  POSTGRES_ADMIN_URL: url,
  KEYCLOAK_DATABASE_URL: url.optional(),
  ...Object.fromEntries(
    services.flatMap((service) => [
      [`${service.toUpperCase()}_DATABASE_URL`, url],
      [`${service.toUpperCase()}_MIGRATION_DATABASE_URL`, url],
    ]),
  ),
});

const config = loadConfigOrExit(schema, 'db-roles') as Record<string, string | undefined>;
const logger = createLogger('db-roles', 'info');
const loginOf = (value: string | undefined): RoleLogin => {
  const parsed = new URL(value ?? '');
  return { user: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
};

const admin = new pg.Client({ connectionString: config.POSTGRES_ADMIN_URL });
try {
  await admin.connect();
  for (const service of services) {
    const app = loginOf(config[`${service.toUpperCase()}_DATABASE_URL`]);
    const owner = loginOf(config[`${service.toUpperCase()}_MIGRATION_DATABASE_URL`]);
    if (app.user === owner.user)
      throw new Error(`${service}: its own role and its schema's owner must differ`);
    await ensureServiceRoles(admin, { ...SERVICE_SCHEMAS[service], app, owner });
    logger.info({ service, app: app.user, owner: owner.user }, 'roles ready');
  }
  if (config.KEYCLOAK_DATABASE_URL) {
    // Keycloak's own role and its own database, which no Rotunda role may enter.
    const keycloak = loginOf(config.KEYCLOAK_DATABASE_URL);
    const database = new URL(config.KEYCLOAK_DATABASE_URL).pathname.slice(1);
    const role = pg.escapeIdentifier(keycloak.user);
    const exists = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [keycloak.user]);
    await admin.query(
      `${exists.rowCount ? 'ALTER' : 'CREATE'} ROLE ${role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD ${pg.escapeLiteral(keycloak.password)}`,
    );
    const present = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (present.rowCount === 0)
      await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(database)} OWNER ${role}`);
    else await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(database)} OWNER TO ${role}`);
    await admin.query(`REVOKE ALL ON DATABASE ${pg.escapeIdentifier(database)} FROM PUBLIC`);
    logger.info({ role: keycloak.user, database }, "Keycloak's role and database ready");
  }
} catch (error) {
  logger.fatal({ err: error }, 'roles failed');
  process.exitCode = 1;
} finally {
  await admin.end().catch(() => {});
}
