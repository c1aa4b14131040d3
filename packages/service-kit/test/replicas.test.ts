// Several replicas of one service, each its own process run through runService on one real PostgreSQL, and a
// client built with the kit's serviceClient over their addresses: calls spread round robin, a read caught on a
// replica that is killed is answered by another (its answer begun or not, one of a steady stream or not), a write
// is never sent twice, SIGTERM drains the calls in flight before the process exits 0, and replicas starting
// together wire one at a time.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type ServiceError, status } from '@grpc/grpc-js';
import { OrgServiceClient } from '@rotunda/protos/org';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serviceClient } from '../src/index.ts';
import { createTestDatabase, testCallers } from '../src/testing/index.ts';
import { type Answer, countByReplica, type Replica, read, startReplica, write } from './support/replicas.ts';

let databaseUrl: string;
let schemas = 0;
const running: Replica[] = [];
const clients: OrgServiceClient[] = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const replica of running.splice(0)) {
    replica.process.kill('SIGKILL');
    await replica.exited;
  }
});

/** Two replicas of one service (one schema of their own), started together. */
async function twoReplicas(envA: Record<string, string> = {}, envB: Record<string, string> = {}) {
  const shared = { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: `replica_${++schemas}` };
  const replicas = await Promise.all([
    startReplica('a', { ...shared, ...envA }),
    startReplica('b', { ...shared, ...envB }),
  ]);
  running.push(...replicas);
  return { replicas: replicas as [Replica, Replica], schema: shared.DATABASE_SCHEMA };
}

/** A client of the replicas that signs the caller of a call, as the gateway's channels do. */
function clientOf(...replicas: Replica[]): OrgServiceClient {
  const client = serviceClient(OrgServiceClient, replicas.map(({ port }) => `127.0.0.1:${port}`).join(','), {
    interceptors: [testCallers.signing],
  });
  clients.push(client);
  return client;
}

/** Waits until the client's channel has connected to every replica (round robin connects to all at once). */
async function connected(client: OrgServiceClient) {
  await new Promise<void>((resolve, reject) =>
    client.waitForReady(Date.now() + 5000, (error) => (error ? reject(error) : resolve())),
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a client over two replicas', () => {
  it('spreads its calls round robin: each replica answers between 30 % and 70 %', async () => {
    const { replicas } = await twoReplicas();
    const client = clientOf(...replicas);
    await connected(client);
    const answers = [];
    for (let i = 0; i < 100; i++) answers.push(await read(client));
    for (let i = 0; i < 50; i++) answers.push(await write(client));
    expect(answers.every((answer) => !answer.error)).toBe(true);
    const counts = countByReplica(answers);
    for (const name of ['a', 'b']) {
      const share = (counts[name] ?? 0) / answers.length;
      expect(share).toBeGreaterThanOrEqual(0.3);
      expect(share).toBeLessThanOrEqual(0.7);
    }
  });

  it('answers every read when a replica is killed with reads in flight on it: they are retried on the other', async () => {
    // Replica a holds every call; b answers at once.
    const { replicas } = await twoReplicas({ EXTRA_DELAY_MS: '60000' });
    const client = clientOf(...replicas);
    await connected(client);
    let settled = 0;
    const reads = Array.from({ length: 20 }, () => read(client).finally(() => (settled += 1)));
    await sleep(500);
    const heldOnA = 20 - settled;
    expect(heldOnA).toBeGreaterThanOrEqual(6);
    replicas[0].process.kill('SIGKILL');
    const answers = await Promise.all(reads);
    expect(answers.filter((answer) => answer.error)).toEqual([]);
    expect(countByReplica(answers)).toEqual({ b: 20 });
    // Later reads go to b alone.
    const later = await Promise.all(Array.from({ length: 10 }, () => read(client)));
    expect(countByReplica(later)).toEqual({ b: 10 });
  });

  it('answers every read whose answer had begun when its replica was killed: sent again, the other answers it', async () => {
    // a sends each read's headers at once and holds its answer, so grpc-js has committed those calls to a.
    const { replicas } = await twoReplicas({ EXTRA_DELAY_MS: '60000', HEADERS_FIRST: 'true' });
    const client = clientOf(...replicas);
    // The read sent again still names the member, as the first one did.
    const member = { userId: 'member-7', email: 'member7@demo.ca.gov', roles: [] };
    await connected(client);
    let settled = 0;
    const reads = Array.from({ length: 20 }, () =>
      read(client, 0, 20_000, member).finally(() => (settled += 1)),
    );
    await sleep(500);
    expect(20 - settled).toBeGreaterThanOrEqual(6);
    replicas[0].process.kill('SIGKILL');
    const answers = await Promise.all(reads);
    expect(answers.filter((answer) => answer.error)).toEqual([]);
    expect(countByReplica(answers)).toEqual({ b: 20 });
    expect(answers.map((answer) => answer.caller)).toEqual(answers.map(() => member.userId));
  });

  it('answers every read of a steady stream from 16 callers while a replica is killed under it', async () => {
    const { replicas } = await twoReplicas({ EXTRA_DELAY_MS: '20' }, { EXTRA_DELAY_MS: '20' });
    const client = clientOf(...replicas);
    await connected(client);
    const answers: Answer[] = [];
    const until = Date.now() + 3000;
    const callers = Array.from({ length: 16 }, async () => {
      while (Date.now() < until) answers.push(await read(client));
    });
    await sleep(1000);
    replicas[0].process.kill('SIGKILL');
    await Promise.all(callers);
    expect(answers.filter((answer) => answer.error)).toEqual([]);
    const counts = countByReplica(answers);
    expect(counts.a).toBeGreaterThan(0);
    expect(counts.b).toBeGreaterThan(counts.a ?? 0);
  });

  it('never sends a write twice: one in flight on a killed replica fails UNAVAILABLE and the other never sees it', async () => {
    const { replicas } = await twoReplicas({ EXTRA_DELAY_MS: '60000' });
    const client = clientOf(...replicas);
    await connected(client);
    let settled = 0;
    const writes = Array.from({ length: 20 }, () => write(client).finally(() => (settled += 1)));
    await sleep(500);
    const heldOnA = 20 - settled;
    expect(heldOnA).toBeGreaterThanOrEqual(6);
    replicas[0].process.kill('SIGKILL');
    const answers = await Promise.all(writes);
    const failed = answers.filter((answer) => answer.error);
    expect(failed).toHaveLength(heldOnA);
    expect(failed.map((answer) => (answer.error as ServiceError).code)).toEqual(
      failed.map(() => status.UNAVAILABLE),
    );
    expect(countByReplica(answers)).toEqual({ b: 20 - heldOnA });
    // b took exactly the writes it answered: none of the failed ones was sent on to it.
    const onlyB = clientOf(replicas[1]);
    expect((await read(onlyB)).writes).toBe(20 - heldOnA);
  });
});

describe('SIGTERM', () => {
  it('A test sends SIGTERM to a service with calls in flight: every one of them completes', async () => {
    const { replicas } = await twoReplicas({ SHUTDOWN_GRACE_MS: '10000' });
    const [a, b] = replicas;
    const both = clientOf(a, b);
    const onlyA = clientOf(a);
    await connected(both);
    await connected(onlyA);
    // Slow calls on a: reads and writes that take 1.5 s.
    const inFlight = [
      ...Array.from({ length: 5 }, () => read(onlyA, 1500)),
      ...Array.from({ length: 5 }, () => write(onlyA, 1500)),
    ];
    await sleep(300);
    a.process.kill('SIGTERM');
    await sleep(200);
    // While a drains, new calls are refused by it and go to b.
    const refused = await read(onlyA, 0, 1000);
    expect(refused.error?.code).toBe(status.UNAVAILABLE);
    const meanwhile = await Promise.all(Array.from({ length: 10 }, () => read(both)));
    expect(countByReplica(meanwhile)).toEqual({ b: 10 });

    const answers = await Promise.all(inFlight);
    expect(answers.filter((answer) => answer.error)).toEqual([]);
    expect(countByReplica(answers)).toEqual({ a: 10 });
    expect(await a.exited).toEqual({ code: 0, signal: null });
  });

  it('cuts calls still running when the grace is over, and still exits 0', async () => {
    const { replicas } = await twoReplicas({ SHUTDOWN_GRACE_MS: '500' });
    const onlyA = clientOf(replicas[0]);
    await connected(onlyA);
    const slow = read(onlyA, 10_000);
    await sleep(200);
    const stopped = Date.now();
    replicas[0].process.kill('SIGTERM');
    expect((await slow).error).toBeDefined();
    expect(await replicas[0].exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - stopped).toBeLessThan(5000);
  });

  it('loading @rotunda/service-kit hooks no exit, beforeExit or signal listeners (embedded-postgres stays unloaded)', async () => {
    const listeners = async (module: string) => {
      const script = `
        const events = ['exit', 'beforeExit', 'SIGTERM', 'SIGINT'];
        const before = events.map((event) => process.listenerCount(event));
        await import(${JSON.stringify(module)});
        console.log(JSON.stringify(events.map((event, i) => process.listenerCount(event) - before[i])));`;
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--input-type=module', '--eval', script],
        { cwd: new URL('..', import.meta.url).pathname },
      );
      return JSON.parse(stdout) as number[];
    };
    expect(await listeners('@rotunda/service-kit')).toEqual([0, 0, 0, 0]);
    // The engine's own subpath does hook SIGTERM and SIGINT (which is why nothing but npm start loads it).
    const engine = await listeners('@rotunda/service-kit/embedded-postgres');
    expect(engine[2]).toBeGreaterThan(0);
  });
});

describe('replicas starting together', () => {
  it('wire one at a time (demo seeds and index syncs never run at once), and both serve afterwards', async () => {
    const { replicas, schema } = await twoReplicas({ WIRE_MS: '700' }, { WIRE_MS: '700' });
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const { rows } = await db.query<{ replica: string; started: Date; ended: Date }>(
      `SELECT replica, started, ended FROM "${schema}".wirings ORDER BY started`,
    );
    await db.end();
    expect(rows.map((row) => row.replica).sort()).toEqual(['a', 'b']);
    const [first, second] = rows as [(typeof rows)[0], (typeof rows)[0]];
    expect(second.started.getTime()).toBeGreaterThanOrEqual(first.ended.getTime());
    const client = clientOf(...replicas);
    await connected(client);
    const answers = await Promise.all(Array.from({ length: 10 }, () => read(client)));
    expect(Object.keys(countByReplica(answers)).sort()).toEqual(['a', 'b']);
  });
});

afterAll(() => {
  for (const replica of running) replica.process.kill('SIGKILL');
});
