// Two profile service replicas on one PostgreSQL, each wired as the composition root wires it (the people directory
// searched from its in-memory copy of the Postgres index) and served over real gRPC: while one replica rebuilds the
// directory's index, the other is stopped and started again, and searches through whichever replicas are up
// answer throughout, never from an empty index, always the right total.
import { Metadata } from '@grpc/grpc-js';
import type { DirectoryPage, ProfileServiceClient } from '@rotunda/protos/profile';
import { createLogger, migrate, setCallerMetadata } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { profileConfigSchema } from '../src/config.ts';
import { wireProfile } from '../src/wiring.ts';
import { serveProfile } from './support/profile-under-test.ts';

const logger = createLogger('profile-reindex-test', 'silent');
const root = new URL('..', import.meta.url).pathname;
/** Enough people that a rebuild takes a while on a loaded machine, long enough to restart a replica within it. */
const PEOPLE = 15_000;
/** People named so that one search matches exactly them. */
const NAMED = 40;
const MEMBER = { userId: 'member-reindex', email: 'member@demo.ca.gov', roles: [] };

interface Replica {
  name: string;
  client: ProfileServiceClient;
  /** The operator's reindex (what `npm run admin -- reindex people` runs), on this replica's wiring. */
  reindex(): ReturnType<Awaited<ReturnType<typeof wireProfile>>['directory']['reindexAll']>;
  /** What the service does after a write to these profiles: their documents rewritten. */
  profilesChanged(profileIds: number[]): Promise<void>;
  stop(): Promise<void>;
}

let databaseUrl: string;
let admin: pg.Client;
const running = new Set<Replica>();

/** Starts a replica as main.ts does: wired, its index brought in step (or left to the replica rebuilding it), served. */
async function startReplica(name: string): Promise<Replica> {
  const config = profileConfigSchema.parse({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const wired = await wireProfile(config, logger);
  await wired.directory.rebuildIfOutOfStep();
  const { directory } = wired;
  const { client, close } = await serveProfile(wired, logger);
  const replica: Replica = {
    name,
    client,
    reindex: () => directory.reindexAll(),
    profilesChanged: (profileIds) => directory.profilesChanged(profileIds),
    async stop() {
      running.delete(replica);
      await close();
      await wired.close();
    },
  };
  running.add(replica);
  return replica;
}

function searchDirectory(replica: Replica, search: string): Promise<DirectoryPage> {
  const metadata = new Metadata();
  setCallerMetadata(metadata, MEMBER);
  return new Promise((resolve, reject) =>
    replica.client.searchDirectory({ search, group: '', offset: 0, limit: 5 }, metadata, (error, response) =>
      error ? reject(error) : resolve(response),
    ),
  );
}

/** Whether a rebuild's new generation stands beside the live tables, i.e. a rebuild is under way. */
async function rebuilding(): Promise<boolean> {
  const { rows } = await admin.query<{ present: boolean }>(
    `SELECT to_regclass('profile_search.people_rebuild') IS NOT NULL AS present`,
  );
  return rows[0]?.present === true;
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await migrate({ databaseUrl, schema: 'profile', migrationsDir: `${root}prisma/migrations`, logger });
  admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(
    `INSERT INTO profile.profiles (first_name, last_name, work_email, updated_at)
      SELECT 'Person' || n, CASE WHEN n <= $2 THEN 'Quillfeather' ELSE 'Surname' || n END, 'p' || n || '@example.org',
             now()
      FROM generate_series(1, $1::integer) AS n`,
    [PEOPLE, NAMED],
  );
});

afterAll(async () => {
  await Promise.all([...running].map((replica) => replica.stop()));
  await admin?.end();
});

it('answers searches through a replica restarted during a reindex, never empty, the right total throughout', async () => {
  const first = await startReplica('first');
  let second = await startReplica('second');
  expect((await searchDirectory(second, 'quillfeather')).total).toBe(NAMED);

  const answers: { replica: string; named: number; everyone: number; during: boolean }[] = [];
  const failures: string[] = [];
  let searching = true;
  const loop = (async () => {
    while (searching) {
      for (const replica of [...running]) {
        try {
          const [named, everyone] = await Promise.all([
            searchDirectory(replica, 'quillfeather'),
            searchDirectory(replica, ''),
          ]);
          answers.push({
            replica: replica.name,
            named: named.total,
            everyone: everyone.profiles.length,
            during: await rebuilding(),
          });
        } catch (error) {
          // A replica stopped between the loop picking it and the call: not an answer of a running replica.
          if (running.has(replica)) failures.push(`${replica.name}: ${(error as Error).message}`);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();

  const reindex = first.reindex();
  await expect.poll(rebuilding, { timeout: 20_000, interval: 20 }).toBe(true);
  await second.stop();
  second = await startReplica('second again');
  // A write through the restarted replica while the rebuild still runs: a profile renamed, as an edit does.
  const { rows } = await admin.query<{ profile_id: number }>(
    `UPDATE profile.profiles SET last_name = 'Marchbanks' WHERE first_name = 'Person' || $1 RETURNING profile_id`,
    [PEOPLE],
  );
  await second.profilesChanged(rows.map((row) => row.profile_id));
  const restartedDuringTheRebuild = await rebuilding();
  expect(await reindex).toEqual({ rebuilt: true, documents: PEOPLE });
  // A few more rounds after the switch, through both replicas.
  const after = answers.length;
  await expect.poll(() => answers.length - after, { timeout: 10_000 }).toBeGreaterThan(6);
  searching = false;
  await loop;

  expect(restartedDuringTheRebuild).toBe(true);
  expect(failures).toEqual([]);
  expect(answers.filter((answer) => answer.during).length).toBeGreaterThan(0);
  expect(
    answers.filter((answer) => answer.replica === 'second again' && answer.during).length,
  ).toBeGreaterThan(0);
  expect(answers.filter((answer) => answer.named !== NAMED || answer.everyone !== 5)).toEqual([]);
  // The rename is in the new generation, found through both replicas.
  expect((await searchDirectory(first, 'marchbanks')).total).toBe(1);
  await expect.poll(async () => (await searchDirectory(second, 'marchbanks')).total).toBe(1);
  expect((await searchDirectory(second, `surname${PEOPLE}`)).total).toBe(0);
}, 180_000);
