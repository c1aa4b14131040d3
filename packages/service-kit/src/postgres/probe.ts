// A readiness probe for a service's database: a pool of one connection (one term of the connection budget), one
// trivial query. It shows as application_name `rotunda.probe` in pg_stat_activity.
import pg from 'pg';

export interface PostgresProbe {
  ready: () => Promise<boolean>;
  close: () => Promise<void>;
}

export function createPostgresProbe(databaseUrl: string): PostgresProbe {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 1,
    connectionTimeoutMillis: 2000,
    application_name: 'rotunda.probe',
  });
  pool.on('error', () => {});
  return {
    ready: async () => {
      await pool.query('SELECT 1');
      return true;
    },
    close: () => pool.end(),
  };
}
