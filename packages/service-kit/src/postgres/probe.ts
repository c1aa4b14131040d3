// A readiness probe for a service's database: one small pool, one trivial query.
import pg from 'pg';

export interface PostgresProbe {
  ready: () => Promise<boolean>;
  close: () => Promise<void>;
}

export function createPostgresProbe(databaseUrl: string): PostgresProbe {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, connectionTimeoutMillis: 2000 });
  pool.on('error', () => {});
  return {
    ready: async () => {
      await pool.query('SELECT 1');
      return true;
    },
    close: () => pool.end(),
  };
}
