// A throwaway real PostgreSQL for integration tests: one embedded server per vitest project (its globalSetup),
// and a fresh database per test file so files never see each other's rows; a service's own roles on request.
// Each project's files reach their own project's server (provide/inject): roles belong to a whole server, and
// projects that make the same role names must not change each other's passwords.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { type DatabaseService, ensureEmbeddedServiceRoles } from '../postgres/roles.ts';
import { freePort } from './ports.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseServerUrl: string;
  }
}

/** A server that takes the project's place for the rest of one test file (outage.ts). */
let fileServerUrl: string | undefined;
export function useTestDatabaseServer(url: string): void {
  fileServerUrl = url;
}

/**
 * vitest globalSetup: starts PostgreSQL and hands its URL to this project's test files. Called by a test file or
 * a benchmark itself (no project), the server is that file's own.
 */
export default async function setup(project?: TestProject): Promise<() => Promise<void>> {
  // Loaded here only: the engine's package hooks process exit and signals, which no test's own process wants.
  const { startEmbeddedPostgres } = await import('../postgres/embedded.ts');
  const dataDir = mkdtempSync(join(tmpdir(), 'rotunda-test-pg-'));
  const running = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    database: 'rotunda_test',
    user: 'rotunda',
    password: 'rotunda',
  });
  if (project) project.provide('testDatabaseServerUrl', running.adminUrl);
  else useTestDatabaseServer(running.adminUrl);
  return async () => {
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

/** A new empty database on the test server; answers its URL. */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = fileServerUrl ?? inject('testDatabaseServerUrl');
  if (!serverUrl) throw new Error("no test PostgreSQL: add the service kit's globalSetup to this project");
  const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The roles `service` runs and migrates as in the test database `databaseUrl` (made by createTestDatabase), made
 * as npm start makes them; answers the URLs a service's DATABASE_URL and MIGRATION_DATABASE_URL would hold.
 */
export async function createServiceRoles(
  databaseUrl: string,
  service: DatabaseService,
): Promise<{ appUrl: string; ownerUrl: string }> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const { url, migrationUrl } = await ensureEmbeddedServiceRoles(admin, databaseUrl, service);
    return { appUrl: url, ownerUrl: migrationUrl };
  } finally {
    await admin.end();
  }
}
