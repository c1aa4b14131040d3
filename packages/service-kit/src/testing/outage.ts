// A PostgreSQL of a test file's own, which the test stops and starts again to see what the service under test
// does while its database is away and once it is back (ADR 0047); the run's shared server is never stopped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTestDatabaseServer } from './database.ts';
import { freePort } from './ports.ts';

export interface StoppablePostgres {
  /** Fast shutdown: every connection is terminated (57P01), new ones are refused. */
  stop: () => Promise<void>;
  /** Starts it again on the same port and data. */
  start: () => Promise<void>;
  /** Stops it for good and removes its data. */
  close: () => Promise<void>;
}

/**
 * Starts a PostgreSQL of this file's own and points createTestDatabase at it (in this test file only), so the
 * databases the file makes are on a server it may stop.
 */
export async function useStoppablePostgres(): Promise<StoppablePostgres> {
  // Loaded here only: the engine's package hooks signals, which other test files' processes do not want.
  const { startEmbeddedPostgres } = await import('../postgres/embedded.ts');
  const dataDir = mkdtempSync(join(tmpdir(), 'rotunda-outage-pg-'));
  const options = {
    dataDir,
    port: await freePort(),
    database: 'rotunda_test',
    user: 'rotunda',
    password: 'rotunda',
  };
  let running: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined =
    await startEmbeddedPostgres(options);
  useTestDatabaseServer(running.adminUrl);
  const stop = async () => {
    await running?.stop();
    running = undefined;
  };
  return {
    stop,
    start: async () => {
      running ??= await startEmbeddedPostgres(options);
    },
    close: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
