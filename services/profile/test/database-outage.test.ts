// The profile service while its PostgreSQL is away and once it is back, on a real PostgreSQL this file stops and
// starts (ADR 0047): a write answers UNAVAILABLE with words to try again shortly, fast, never INTERNAL; the
// people directory still answers from its in-memory copy; the health check says the database is away while
// the server stays SERVING, and the metrics count it; once PostgreSQL is back, the next write succeeds within
// seconds with no restart, the health check says so, and the read copy of organization names catches up on what
// changed meanwhile, as does another replica's copy of the people index.
import { randomUUID } from 'node:crypto';
import { credentials, makeClientConstructor, type ServiceError, status } from '@grpc/grpc-js';
import type { Profile } from '@rotunda/protos/profile';
import { type SearchIndex, searchIndexFromConfig } from '@rotunda/search';
import { type Caller, DEPENDENCY_MESSAGES, metricsRegistry } from '@rotunda/service-kit';
import { refusal, type StoppablePostgres, useStoppablePostgres } from '@rotunda/service-kit/testing';
import { service as healthService } from 'grpc-health-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepOrgCopy } from '../src/adapters/org-change-listener.ts';
import { PEOPLE_INDEX } from '../src/domain/directory.ts';
import { demoOrgData, type FakeOrgData } from './support/fake-services.ts';
import { type ProfileUnderTest, startProfileUnderTest } from './support/profile-under-test.ts';

const HealthClient = makeClientConstructor(healthService, 'grpc.health.v1.Health');

let postgres: StoppablePostgres;
let service: ProfileUnderTest;
let orgData: FakeOrgData;
let listener: ReturnType<typeof keepOrgCopy>;
/** Another replica's in-memory copy of the people index, kept by its own LISTEN connection. */
let otherReplica: SearchIndex;
let port: number;

const member = (): Caller => ({ userId: `user-${randomUUID()}`, email: 'someone@demo.ca.gov', roles: [] });

async function healthOf(service = ''): Promise<string> {
  const client = new HealthClient(`127.0.0.1:${port}`, credentials.createInsecure());
  try {
    return await new Promise((resolve, reject) =>
      (
        client.Check as (r: object, cb: (e: ServiceError | null, res: { status: string }) => void) => void
      ).call(client, { service }, (error, response) => (error ? reject(error) : resolve(response.status))),
    );
  } finally {
    client.close();
  }
}

async function metric(name: string): Promise<number> {
  const found = (await metricsRegistry.getSingleMetric(name)?.get())?.values.find(
    (value) => value.labels.dependency === 'database',
  );
  return found?.value ?? Number.NaN;
}

async function profileOf(caller: Caller, lastName: string): Promise<Profile> {
  const image = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#2a7f62' } })
    .png()
    .toBuffer();
  const { url } = await service.rpc('uploadPicture', { image }, caller);
  return service.rpc(
    'createProfile',
    {
      fields: {
        profile_picture: url,
        first_name: 'Outage',
        last_name: lastName,
        work_email: `${randomUUID().slice(0, 8)}@agency.example.org`,
        other_phone: '9165550100',
      },
    },
    caller,
  );
}

const search = (text: string) =>
  service.rpc('searchDirectory', { search: text, group: '', limit: 30, offset: 0 }, member());

beforeAll(async () => {
  postgres = await useStoppablePostgres();
  orgData = demoOrgData();
  service = await startProfileUnderTest('profile-outage', { org: orgData, databaseHealth: true });
  port = service.port;
  listener = keepOrgCopy({
    databaseUrl: service.databaseUrl,
    logger: service.logger,
    orgCopy: service.orgCopy,
  });
  await listener.ready;
  otherReplica = searchIndexFromConfig(
    {
      DATABASE_URL: service.databaseUrl,
      SEARCH_SCHEMA: 'profile_search',
      SEARCH_INDEX: 'people',
      SEARCH_IN_MEMORY: true,
    },
    PEOPLE_INDEX,
  );
  await otherReplica.ensure();
}, 120_000);

afterAll(async () => {
  await listener?.close();
  await otherReplica?.close();
  await service?.close();
  await postgres?.close();
});

describe('while PostgreSQL is away, and after it is back', () => {
  it('refuses writes fast and honestly, answers kept reads, says so in health, and recovers by itself', async () => {
    const owner = member();
    const kept = await profileOf(owner, 'Keptcopy');
    expect((await search('Keptcopy')).profiles.map((card) => card.profile_id)).toEqual([kept.profile_id]);
    expect(await healthOf('dependency/database')).toBe('SERVING');
    const refusedBefore = await metric('rotunda_dependency_refused_calls_total');

    await postgres.stop();
    // A write: UNAVAILABLE (the gateway's 503 "try again shortly"), well inside the gateway's 3 s deadline.
    const started = performance.now();
    const write = await refusal(
      service.rpc('setBio', { profile_id: kept.profile_id, user_bio: 'Written while away.' }, owner),
    );
    const refusedMs = performance.now() - started;
    expect(refusedMs).toBeLessThan(2500);
    expect(write).toEqual({ code: status.UNAVAILABLE, details: DEPENDENCY_MESSAGES.database });
    // A read the in-memory copy of the directory answers: still answered.
    expect((await search('Keptcopy')).profiles.map((card) => card.profile_id)).toEqual([kept.profile_id]);
    // The process serves on (Kubernetes keeps it in rotation); its database's status says what is wrong.
    await expect.poll(() => healthOf('dependency/database'), { timeout: 5000 }).toBe('NOT_SERVING');
    expect(await healthOf()).toBe('SERVING');
    expect(await metric('rotunda_dependency_up')).toBe(0);
    expect(await metric('rotunda_dependency_refused_calls_total')).toBeGreaterThan(refusedBefore);
    // Meanwhile the org service renames an organization: its announcement reaches no one listening.
    const renamed = orgData.exported[0];
    if (!renamed) throw new Error('the demo org data has no organization');
    renamed.organization_name = 'Renamed While Away Board';

    await postgres.start();
    const back = performance.now();
    // The next write succeeds within seconds of the return, with no restart of anything.
    await expect
      .poll(
        () =>
          service.rpc('setBio', { profile_id: kept.profile_id, user_bio: 'Written once back.' }, owner).then(
            () => true,
            () => false,
          ),
        { timeout: 10_000, interval: 200 },
      )
      .toBe(true);
    const recoveredMs = performance.now() - back;
    expect(recoveredMs).toBeLessThan(10_000);
    await expect.poll(() => healthOf('dependency/database'), { timeout: 10_000 }).toBe('SERVING');
    const healthyMs = performance.now() - back;
    expect(await metric('rotunda_dependency_up')).toBe(1);
    // The listener opened its connection again and copied what it missed.
    await expect
      .poll(
        async () =>
          (
            await service.prisma.organization.findUnique({
              where: { organizationId: renamed.organization_id },
            })
          )?.organizationName,
        { timeout: 10_000 },
      )
      .toBe('Renamed While Away Board');
    const caughtUpMs = performance.now() - back;
    // Writes and searches work as before: a new person is found, by the writer and by the other replica, whose
    // copy listens again (a notification) or reloaded on reconnecting.
    const later = await profileOf(member(), 'Afterreturn');
    expect((await search('Afterreturn')).profiles.map((card) => card.profile_id)).toEqual([later.profile_id]);
    await expect
      .poll(async () => (await otherReplica.search({ text: 'afterreturn', offset: 0, limit: 10 })).ids, {
        timeout: 5000,
      })
      .toEqual([String(later.profile_id)]);
    console.info(
      `profile service: write refused in ${Math.round(refusedMs)} ms while away; after PostgreSQL returned, first write ok in ${Math.round(recoveredMs)} ms, health SERVING in ${Math.round(healthyMs)} ms, org names caught up in ${Math.round(caughtUpMs)} ms`,
    );
  });
});
