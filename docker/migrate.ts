// The migration step on its own (ADR 0008): applies one service's SQL migrations to its schema and exits.
// Kubernetes runs it as a Job in each service's image before the pods (started with MIGRATE_ON_START=false)
// roll out: `node /app/docker/migrate.ts <service>`, reading MIGRATION_DATABASE_URL (the schema owner's role;
// unset: DATABASE_URL), DATABASE_SCHEMA and LOG_LEVEL.
import { createLogger, loadConfigOrExit, migrate, serviceConfigSchema } from '@rotunda/service-kit';

const SERVICES = ['auth', 'profile', 'org', 'post', 'news', 'notification'];

const name = process.argv[2] ?? '';
if (!SERVICES.includes(name)) {
  process.stderr.write(`usage: migrate.ts <${SERVICES.join('|')}>\n`);
  process.exit(64); // EX_USAGE
}

// The service's own settings schema supplies DATABASE_SCHEMA's default (the service's name); the port is unused.
const config = loadConfigOrExit(serviceConfigSchema(name, 0), `${name}-migrate`);
const logger = createLogger(`${name}-migrate`, config.LOG_LEVEL);
try {
  const applied = await migrate({
    databaseUrl: config.MIGRATION_DATABASE_URL ?? config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    migrationsDir: new URL(`../services/${name}/prisma/migrations`, import.meta.url).pathname,
    logger,
  });
  logger.info({ schema: config.DATABASE_SCHEMA, applied }, 'migrations up to date');
} catch (error) {
  logger.fatal({ err: error }, 'migrations failed');
  process.exit(1);
}
