// What the gateway shows while a service's database is away (ADR 0047): /healthz answers 503 "degraded" naming
// the service whose database is unavailable, while the service itself serves on, and 200 again once it is back;
// a feed page already answered is answered again while the post service cannot answer at all, a page never
// answered gets the 503 that says to try again in a few seconds, and any other failure is never masked; the
// micro-caches (headlines, post types) answer their last value the same way; the metrics count each.
import type { AddressInfo } from 'node:net';
import { Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { ProfileServiceService } from '@rotunda/protos/profile';
import {
  createLogger,
  loadConfig,
  metricsRegistry,
  type RunningGrpcServer,
  startGrpcServer,
  UNAVAILABLE_DEPENDENCY_TRAILER,
} from '@rotunda/service-kit';
import { testCallers } from '@rotunda/service-kit/testing';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { gatewayConfigSchema } from '../src/config.ts';
import { createServiceClients, ServiceCallError } from '../src/grpc/clients.ts';
import { createHealthChecker } from '../src/grpc/health.ts';
import { errorHandler, httpErrorOf } from '../src/http/errors.ts';
import { feedPages } from '../src/http/feed-pages.ts';
import type { FeedVersionWatch } from '../src/http/feed-version.ts';
import { microCache } from '../src/http/micro-cache.ts';
import { keptThroughOutage } from '../src/telemetry/outage.ts';

/** rotunda_gateway_kept_answers_total for `answer`. */
async function keptAnswers(answer: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('rotunda_gateway_kept_answers_total')?.get();
  return metric?.values.find((value) => value.labels.answer === answer)?.value ?? 0;
}

const logger = createLogger('test', 'silent');
const failure = (code: status, details = 'x', metadata = new Metadata()) =>
  new ServiceCallError('post', Object.assign(new Error('post'), { code, details, metadata }) as ServiceError);
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

async function listen(app: express.Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('/healthz while a service’s database is away', () => {
  it('answers 503 degraded naming the service and its database, then 200 once it is back', async () => {
    let databaseUp = true;
    const profile: RunningGrpcServer = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      services: [
        { name: 'rotunda.profile.v1.ProfileService', definition: ProfileServiceService, implementation: {} },
      ],
      dependencies: { database: async () => databaseUp },
      readinessIntervalMs: 50,
    });
    closers.push(() => profile.shutdown());
    const config = loadConfig(gatewayConfigSchema, {
      ...testCallers.env,
      SERVE_WEB: 'false',
      // Nothing answers for the others (a product running on this machine may hold the default ports).
      ...Object.fromEntries(
        ['AUTH', 'ORG', 'POST', 'NEWS', 'NOTIFICATION'].map((name) => [
          `${name}_SERVICE_ADDR`,
          '127.0.0.1:1',
        ]),
      ),
      PROFILE_SERVICE_ADDR: `127.0.0.1:${profile.port}`,
    });
    const clients = createServiceClients(config);
    const health = createHealthChecker(clients.addresses, 500);
    closers.push(async () => {
      clients.close();
      health.close();
    });
    const base = await listen(
      createApp({ config, clients, services: health.check, dependencies: health.dependencies, logger }),
    );
    const healthz = async () => {
      const res = await fetch(`${base}/healthz`);
      return {
        status: res.status,
        body: (await res.json()) as { services: Record<string, string>; dependencies?: unknown },
      };
    };

    // Only the profile service runs here, so only it reports a database.
    expect((await healthz()).body.dependencies).toEqual({ profile: { database: 'UP' } });
    databaseUp = false;
    await expect
      .poll(async () => (await healthz()).body.dependencies)
      .toEqual({
        profile: { database: 'UNAVAILABLE' },
      });
    const degraded = await healthz();
    expect(degraded.status).toBe(503);
    expect(degraded.body.services.profile).toBe('SERVING');
    // The gateway itself stays in rotation: /readyz does not follow a database.
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    databaseUp = true;
    await expect
      .poll(async () => (await healthz()).body.dependencies)
      .toEqual({ profile: { database: 'UP' } });
  });
});

describe('the feed’s kept pages while the post service cannot answer', () => {
  it('answers the last page again, never stored by the browser; a page never answered gets 503', async () => {
    const dropped: (() => void)[] = [];
    let watching = true;
    const feedVersion: FeedVersionWatch = {
      watching: () => watching,
      onChange: (listener) => dropped.push(listener),
      changed: () => {},
      ask: async () => undefined,
      hasSeen: () => true,
      close: () => {},
    };
    const pages = feedPages({ clients: {} as never, cacheSeconds: 5, logger, feedVersion });
    let load: () => Promise<unknown> = async () => ({ posts: ['kept page'] });
    const app = express();
    app.use((req, _res, next) => {
      (req as unknown as { log: typeof logger }).log = logger;
      next();
    });
    app.get('/feed/:page', (req, res, next) => {
      pages.send(req, res, pages.feed, req.params.page, () => load()).catch(next);
    });
    app.use(errorHandler);
    const base = await listen(app);

    expect(await (await fetch(`${base}/feed/1`)).json()).toEqual({ posts: ['kept page'] });
    // The post service's database goes: the version cannot be asked (pages dropped), every load is refused.
    watching = false;
    for (const drop of dropped) drop();
    load = () => Promise.reject(failure(status.UNAVAILABLE));
    const keptBefore = await keptAnswers('feed page');
    const kept = await fetch(`${base}/feed/1`);
    expect(kept.status).toBe(200);
    expect(await keptAnswers('feed page')).toBe(keptBefore + 1);
    expect(kept.headers.get('cache-control')).toBe('private, no-store');
    expect(await kept.json()).toEqual({ posts: ['kept page'] });
    const never = await fetch(`${base}/feed/2`);
    expect(never.status).toBe(503);
    expect(never.headers.get('retry-after')).toBe('5');
    expect(await never.json()).toEqual({
      errors: [{ msg: 'The post service is unavailable. Please try again shortly.' }],
    });
    // A bug is not an outage: no kept page hides it.
    load = () => Promise.reject(failure(status.INTERNAL));
    expect((await fetch(`${base}/feed/1`)).status).toBe(500);
  });
});

describe('a micro-cache (the headlines, the post types) while its service cannot answer', () => {
  it('answers its last value past its time, and fails as before on anything but an outage', async () => {
    let now = 0;
    const cache = microCache<string>(1000, () => now, keptThroughOutage('headlines'));
    expect(await cache.get(async () => 'headlines')).toBe('headlines');
    now = 5000;
    expect(await cache.get(() => Promise.reject(failure(status.UNAVAILABLE)))).toBe('headlines');
    // The operator sees it: one answer given from what was kept.
    expect(await keptAnswers('headlines')).toBe(1);
    await expect(cache.get(() => Promise.reject(failure(status.INTERNAL)))).rejects.toThrow('post');
    expect(await cache.get(async () => 'new headlines')).toBe('new headlines');
    const empty = microCache<string>(1000, () => now, keptThroughOutage('headlines'));
    await expect(empty.get(() => Promise.reject(failure(status.UNAVAILABLE)))).rejects.toThrow('post');
    expect(await keptAnswers('headlines')).toBe(1);
  });
});

describe('the words of a 503', () => {
  const naming = (dependency: string) => {
    const metadata = new Metadata();
    metadata.set(UNAVAILABLE_DEPENDENCY_TRAILER, dependency);
    return metadata;
  };

  it('are the service’s own when an engine it needs is away, the gateway’s when its database is', () => {
    const search = 'Search is unavailable right now. Please try again shortly.';
    expect(httpErrorOf(failure(status.UNAVAILABLE, search, naming('search')))).toEqual({
      status: 503,
      message: search,
      retryAfter: 5,
    });
    const database = 'The database cannot be reached. Please try again shortly.';
    for (const unnamed of [
      failure(status.UNAVAILABLE, database, naming('database')),
      failure(status.UNAVAILABLE),
    ])
      expect(httpErrorOf(unnamed)).toEqual({
        status: 503,
        message: 'The post service is unavailable. Please try again shortly.',
        retryAfter: 5,
      });
  });
});
