// What only the running stack shows (npm run test:stack starts it first): two replicas of each service and the
// gateway, migrations applied once though the replicas raced, a killed replica restarted while the product keeps
// answering, each service's database roles kept to its own schema, every port on loopback, no process as root, no
// secret in an image, the digests sent by the one-off run the README gives, and a refused body answered 4xx.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PROJECT } from '../src/compose.ts';
import { dockerEnv } from '../src/engine.ts';
import { parseEnv } from '../src/secrets.ts';
import { compose, ENV_FILE, STACK_URL, stackSetting } from '../src/stack.ts';
import { containersOf, docker } from './support/docker.ts';

const run = promisify(execFile);
const REPO = join(import.meta.dirname, '../../..');
const REPLICATED = ['auth', 'profile', 'org', 'post', 'news', 'notification', 'gateway'] as const;
const SCHEMAS = ['auth', 'profile', 'org', 'post', 'news', 'notification'] as const;
const OWN_IMAGES = [...REPLICATED, 'shell', 'mf-feed', 'mf-directory', 'mf-organizations', 'mf-profile'];

async function inspect(id: string): Promise<{
  State: { Status: string; Health?: { Status: string } };
  Config: { User: string; Env: string[] };
  RestartCount: number;
  HostConfig: {
    ReadonlyRootfs: boolean;
    PortBindings: Record<string, { HostIp: string; HostPort: string }[] | null> | null;
  };
}> {
  const [container] = JSON.parse(await docker('container', 'inspect', id));
  return container;
}

function stackSecrets(): string[] {
  return [...parseEnv(readFileSync(ENV_FILE, 'utf8'))]
    .filter(([name, value]) => /PASSWORD|SECRET|KEY/.test(name) && value !== '')
    .map(([, value]) => value);
}

/**
 * A query through the port the stack publishes on loopback: as the database's superuser, or as the role and
 * password given.
 */
async function sql(
  query: string,
  params: unknown[] = [],
  login = { user: 'rotunda', password: stackSetting('POSTGRES_PASSWORD'), database: 'rotunda' },
): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port: 5432,
    user: login.user,
    password: login.password,
    database: login.database,
  });
  await client.connect();
  try {
    return (await client.query(query, params)).rows;
  } finally {
    await client.end();
  }
}

/** One table of a schema's own (not the migrations' record), as the superuser sees them. */
async function tableOf(schema: string): Promise<string> {
  const [row] = await sql(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'
      ORDER BY table_name LIMIT 1`,
    [schema],
  );
  if (!row) throw new Error(`schema ${schema} has no table`);
  return `"${schema}"."${String(row.table_name)}"`;
}

describe('the running stack', () => {
  it('runs two healthy replicas of each service and of the gateway', async () => {
    for (const service of REPLICATED) {
      const ids = await containersOf(service);
      expect(ids, service).toHaveLength(2);
      for (const id of ids) expect((await inspect(id)).State.Health?.Status, service).toBe('healthy');
    }
  });

  it('applied each migration once, though two replicas of each service started at once', async () => {
    for (const schema of SCHEMAS) {
      const rows = await sql(
        `SELECT migration_name, count(*)::int AS applied FROM "${schema}"."_prisma_migrations" WHERE finished_at IS NOT NULL GROUP BY 1`,
      );
      expect(rows.length, schema).toBeGreaterThan(0);
      for (const row of rows) expect(row.applied, `${schema}: ${row.migration_name}`).toBe(1);
    }
  });

  it("gives each service's roles their own schema only, and no Rotunda role Keycloak's database", async () => {
    const permissionDenied = { code: '42501' };
    for (const service of SCHEMAS) {
      const variable = service.toUpperCase();
      const app = { user: service, password: stackSetting(`${variable}_DB_PASSWORD`), database: 'rotunda' };
      const owner = {
        user: `${service}_owner`,
        password: stackSetting(`${variable}_DB_OWNER_PASSWORD`),
        database: 'rotunda',
      };
      const own = await tableOf(service);
      // The service's role reads its rows, and cannot change what its tables are.
      await expect(sql(`SELECT count(*) FROM ${own}`, [], app), service).resolves.toHaveLength(1);
      await expect(
        sql(`CREATE TABLE "${service}".intruder (id int)`, [], app),
        `${service} creates a table`,
      ).rejects.toMatchObject(permissionDenied);
      for (const other of SCHEMAS.filter((schema) => schema !== service)) {
        const theirs = await tableOf(other);
        for (const login of [app, owner])
          await expect(
            sql(`SELECT 1 FROM ${theirs} LIMIT 1`, [], login),
            `${login.user} reads ${theirs}`,
          ).rejects.toMatchObject(permissionDenied);
      }
      await expect(
        sql('SELECT 1', [], { ...app, database: 'keycloak' }),
        `${service} enters Keycloak's database`,
      ).rejects.toMatchObject(permissionDenied);
    }
  });

  it('publishes every port on 127.0.0.1 only, and the gateway and services not at all', async () => {
    const ids = await docker(
      'container',
      'ls',
      '--quiet',
      '--filter',
      `label=com.docker.compose.project=${PROJECT}`,
    );
    for (const id of ids.split('\n').filter(Boolean)) {
      const bindings = Object.values((await inspect(id)).HostConfig.PortBindings ?? {}).flatMap(
        (list) => list ?? [],
      );
      for (const binding of bindings) expect(binding.HostIp, id).toBe('127.0.0.1');
    }
    for (const service of REPLICATED)
      for (const id of await containersOf(service))
        expect(Object.keys((await inspect(id)).HostConfig.PortBindings ?? {}), service).toEqual([]);
  });

  it("runs Rotunda's processes as a user other than root", async () => {
    for (const service of OWN_IMAGES) {
      const [id] = await containersOf(service);
      expect(id, service).toBeDefined();
      expect(await docker('exec', id ?? '', 'id', '-u'), service).not.toBe('0');
    }
  });

  it("runs Rotunda's containers on read-only file systems", async () => {
    for (const service of [...OWN_IMAGES, 'edge']) {
      const [id] = await containersOf(service);
      expect((await inspect(id ?? '')).HostConfig.ReadonlyRootfs, service).toBe(true);
    }
    const [gateway] = await containersOf('gateway');
    await expect(docker('exec', gateway ?? '', 'touch', '/app/gateway/written')).rejects.toThrow(
      /Read-only file system/,
    );
  });

  it('keeps every secret out of the images: they come from .env when a container starts', async () => {
    const secrets = stackSecrets();
    expect(secrets.length).toBeGreaterThan(10);
    for (const service of OWN_IMAGES) {
      const image = JSON.parse(await docker('image', 'inspect', `rotunda/${service}:local`))[0];
      const baked = [
        JSON.stringify(image.Config),
        await docker('image', 'history', '--no-trunc', `rotunda/${service}:local`),
      ].join('\n');
      for (const secret of secrets) expect(baked.includes(secret), `rotunda/${service}:local`).toBe(false);
    }
  });

  it("sends the digests due with the notification image's one-off run, as the README tells an operator", async () => {
    const { binary, args } = await compose();
    const { stdout } = await run(
      binary,
      [...args, 'run', '--rm', '--no-deps', 'notification', 'node', 'src/send-digests.ts'],
      { cwd: REPO, env: dockerEnv() },
    );
    expect(stdout).toMatch(/^Digests: \d+ sent, \d+ members? considered/m);
  });

  // A body the gateway refuses before reading it: past nginx's default "Connection: close" to the gateway, Node
  // closed the socket while the edge still sent the body, and about 1 in 20 came back 502 (edge.conf).
  it('answers a request body refused unread with its 4xx through the edge, never 502', async () => {
    const body = JSON.stringify({ padding: 'P'.repeat(1_200_000) });
    const statuses = new Map<number, number>();
    for (let sent = 0; sent < 100; sent += 1) {
      const answer = await fetch(`${STACK_URL}/realms/rotunda/protocol/openid-connect/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await answer.arrayBuffer();
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 400: 100 });
  });

  it('restarts a crashed service replica while the product keeps answering through its twin', async () => {
    const [victim] = await containersOf('profile', { all: false });
    if (!victim) throw new Error('no profile replica');
    const before = (await inspect(victim)).RestartCount;
    // A member's own profile: a read the gateway keeps no copy of, so every one reaches a profile replica.
    const login = await fetch(`${STACK_URL}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'member@demo.ca.gov', password: 'Member#2024x' }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    let failures = 0;
    let answers = 0;
    const reading = (async () => {
      const until = Date.now() + 20_000;
      while (Date.now() < until) {
        const response = await fetch(`${STACK_URL}/api/profiles/user-check`, {
          headers: { 'x-auth-token': token },
          signal: AbortSignal.timeout(10_000),
        }).catch(() => null);
        if (response?.ok) answers += 1;
        else failures += 1;
        await sleep(100);
      }
    })();
    await sleep(2_000);
    // Its process dies as in a crash (kill -9 from the host). `docker kill` would be an operator's stop, which
    // Docker's restart policy leaves stopped.
    process.kill(
      Number(await docker('container', 'inspect', '--format', '{{.State.Pid}}', victim)),
      'SIGKILL',
    );
    await reading;
    expect(answers).toBeGreaterThan(50);
    expect(failures, 'reads that failed while a profile replica crashed').toBe(0);
    // Docker restarts it (restart: unless-stopped), and it is healthy again.
    await expect
      .poll(
        async () => {
          const state = await inspect(victim);
          return state.RestartCount > before && state.State.Health?.Status === 'healthy';
        },
        { timeout: 120_000, interval: 2_000 },
      )
      .toBe(true);
  });
});
