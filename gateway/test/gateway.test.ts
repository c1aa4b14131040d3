// The gateway against real gRPC servers: the documented /api/news answer, status mapping when a service is
// down or slow, request ids carried over gRPC metadata, /healthz, JSON errors, security headers, web serving,
// and the public config built from PUBLIC_URL alone.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { AuthServiceService } from '@rotunda/protos/auth';
import { type ListHeadlinesResponse, NewsServiceService } from '@rotunda/protos/news';
import { NotificationServiceService } from '@rotunda/protos/notification';
import { OrgServiceService } from '@rotunda/protos/org';
import { PostServiceService } from '@rotunda/protos/post';
import { ProfileServiceService } from '@rotunda/protos/profile';
import { createLogger, loadConfig, type RunningGrpcServer, startGrpcServer } from '@rotunda/service-kit';
import { type RecordingFake, startRecordingFake, testCallers } from '@rotunda/service-kit/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { gatewayConfigSchema } from '../src/config.ts';
import { createServiceClients } from '../src/grpc/clients.ts';
import { createHealthChecker } from '../src/grpc/health.ts';

const logger = createLogger('test', 'silent');
const created = new Date('2026-11-20T18:30:00.000Z');
/** How long the news service takes to answer (a test makes it slow). */
const answerDelay = { ms: 0 };

const newsFake = () =>
  startRecordingFake({
    definition: NewsServiceService,
    defaults: {
      listHeadlines: async (): Promise<ListHeadlinesResponse> => {
        if (answerDelay.ms) await new Promise((resolve) => setTimeout(resolve, answerDelay.ms));
        return {
          headlines: [
            {
              title: 'Budget deal reached',
              snippet: 'Negotiators agreed.',
              url: 'https://example.org/a',
              logo: '',
              publication: 'The Capitol Ledger',
              created_at: created,
            },
          ],
        };
      },
    },
  });

const healthOnly = (name: string, definition: ServiceDefinition) =>
  startGrpcServer({
    callers: testCallers.verifier,
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [{ name, definition, implementation: {} }],
  });

/** A GET with headers fetch will not send as given (Host). */
function rawRequest(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

async function serve(env: Record<string, string>) {
  const config = loadConfig(gatewayConfigSchema, {
    ...testCallers.env,
    SERVE_WEB: 'false',
    PUBLIC_CACHE_SECONDS: '0',
    ...env,
  });
  const clients = createServiceClients(config);
  const health = createHealthChecker(clients.addresses, 500);
  const app = createApp({ config, clients, services: health.check, logger });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    close: async () => {
      clients.close();
      health.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('gateway', () => {
  const servers: RunningGrpcServer[] = [];
  let news: RecordingFake;
  let env: Record<string, string>;
  let gateway: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    news = await newsFake();
    const others = await Promise.all([
      healthOnly('rotunda.auth.v1.AuthService', AuthServiceService),
      healthOnly('rotunda.profile.v1.ProfileService', ProfileServiceService),
      healthOnly('rotunda.org.v1.OrgService', OrgServiceService),
      healthOnly('rotunda.post.v1.PostService', PostServiceService),
      healthOnly('rotunda.notification.v1.NotificationService', NotificationServiceService),
    ]);
    servers.push(news.server, ...others);
    env = {
      NEWS_SERVICE_ADDR: news.address,
      AUTH_SERVICE_ADDR: `127.0.0.1:${others[0]?.port}`,
      PROFILE_SERVICE_ADDR: `127.0.0.1:${others[1]?.port}`,
      ORG_SERVICE_ADDR: `127.0.0.1:${others[2]?.port}`,
      POST_SERVICE_ADDR: `127.0.0.1:${others[3]?.port}`,
      NOTIFICATION_SERVICE_ADDR: `127.0.0.1:${others[4]?.port}`,
    };
    gateway = await serve(env);
  });
  afterEach(() => {
    answerDelay.ms = 0;
  });
  afterAll(async () => {
    await gateway.close();
    await Promise.all(servers.map((server) => server.shutdown()));
  });

  it('answers GET /api/news with the documented headline array', async () => {
    const res = await fetch(`${gateway.base}/api/news`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      {
        title: 'Budget deal reached',
        snippet: 'Negotiators agreed.',
        url: 'https://example.org/a',
        logo: '',
        publication: 'The Capitol Ledger',
        createdAt: '2026-11-20T18:30:00.000Z',
      },
    ]);
  });

  it('carries the caller’s request id to the service and back', async () => {
    const res = await fetch(`${gateway.base}/api/news`, { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-abc-123');
    expect(news.calls.at(-1)?.requestId).toBe('trace-abc-123');
  });

  it('makes up a request id when the caller sends none or a malformed one', async () => {
    const res = await fetch(`${gateway.base}/api/news`, {
      headers: { 'x-request-id': 'not a valid id; has spaces' },
    });
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(news.calls.at(-1)?.requestId).toBe(id);
  });

  it('serves a crowd of visitors from one service call within the cache window', async () => {
    const cached = await serve({ ...env, PUBLIC_CACHE_SECONDS: '30' });
    const before = news.calls.length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${cached.base}/api/news`)));
    expect(answers.every((res) => res.status === 200)).toBe(true);
    expect(answers[0]?.headers.get('cache-control')).toBe('public, max-age=30');
    expect(news.calls.length - before).toBe(1);
    await cached.close();
  });

  it('answers 504 with a clear message when a service does not answer within the deadline', async () => {
    answerDelay.ms = 1500;
    const slow = await serve({ ...env, GRPC_DEADLINE_MS: '200' });
    const started = Date.now();
    const res = await fetch(`${slow.base}/api/news`);
    expect(Date.now() - started).toBeLessThan(1200);
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ errors: [{ msg: 'The news service did not answer in time.' }] });
    await slow.close();
  });

  it('waits longer for a sign-in, which hashes a password, than for any other call', async () => {
    // The auth service signing in takes 600 ms: past the usual deadline, inside the sign-in's.
    const auth = await startRecordingFake({
      definition: AuthServiceService,
      defaults: {
        login: async () => {
          await new Promise((resolve) => setTimeout(resolve, 600));
          return {
            user: {
              user_id: 'u-1',
              first_name: 'Ada',
              last_name: 'Lovelace',
              email: 'ada@example.ca.gov',
              contributor: false,
              email_confirmed: true,
              admin: false,
            },
            tokens: { access_token: 'a', expires_in: 300, refresh_token: 'r', refresh_expires_in: 1800 },
          };
        },
      },
    });
    servers.push(auth.server);
    const login = (base: string) =>
      fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.ca.gov', password: 'Secret#2024x' }),
      });
    const waiting = await serve({
      ...env,
      AUTH_SERVICE_ADDR: auth.address,
      GRPC_DEADLINE_MS: '200',
      PASSWORD_DEADLINE_MS: '2000',
    });
    const signedIn = await login(waiting.base);
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toMatchObject({ user: { email: 'ada@example.ca.gov' } });
    await waiting.close();

    const impatient = await serve({ ...env, AUTH_SERVICE_ADDR: auth.address, PASSWORD_DEADLINE_MS: '200' });
    const timedOut = await login(impatient.base);
    expect(timedOut.status).toBe(504);
    expect(await timedOut.json()).toEqual({ errors: [{ msg: 'The auth service did not answer in time.' }] });
    await impatient.close();
  });

  it('answers 503 naming the service when it is down, never hanging', async () => {
    const down = await serve({ ...env, NEWS_SERVICE_ADDR: '127.0.0.1:1' });
    const started = Date.now();
    const res = await fetch(`${down.base}/api/news`);
    expect(Date.now() - started).toBeLessThan(3500);
    expect(res.status).toBe(503);
    // A member's screen (or a client) may come back by itself: a restarted replica or database is back by then.
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({
      errors: [{ msg: 'The news service is unavailable. Please try again shortly.' }],
    });
    const health = await fetch(`${down.base}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'unavailable', services: { news: 'UNREACHABLE' } });
    // The gateway itself still takes requests: an orchestrator keeps it in rotation for every other call.
    const ready = await fetch(`${down.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', web: 'NOT_SERVED' });
    await down.close();
  });

  it('answers /healthz 200 when every service is serving', async () => {
    const res = await fetch(`${gateway.base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      services: {
        auth: 'SERVING',
        profile: 'SERVING',
        org: 'SERVING',
        post: 'SERVING',
        news: 'SERVING',
        notification: 'SERVING',
      },
      web: 'NOT_SERVED',
      moderationSnapshot: expect.objectContaining({ status: expect.any(String) }),
    });
  });

  it('answers JSON errors for unknown endpoints and unreadable bodies', async () => {
    const missing = await fetch(`${gateway.base}/api/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ errors: [{ msg: 'No such endpoint: GET /api/nothing-here' }] });
    const broken = await fetch(`${gateway.base}/api/news`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title": ',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ errors: [{ msg: 'The request body is not valid JSON.' }] });
  });

  it('tells the browser where to ask for access and where the identity provider lives', async () => {
    const res = await fetch(`${gateway.base}/app-config.json`);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.json()).toEqual({
      accessEmail: 'membership@rotunda.example',
      // PUBLIC_URL's default: http://localhost:<PORT>, the configured port (8080 here, whatever it listens on).
      identity: { url: 'http://localhost:8080', realm: 'rotunda', clientId: 'rotunda-web' },
    });
  });

  it('names the identity provider at PUBLIC_URL, whatever Host or forwarded headers a request claims', async () => {
    const configured = await serve({ ...env, PUBLIC_URL: 'https://rotunda.example.org/' });
    try {
      for (const headers of [
        {} as Record<string, string>,
        { host: 'evil.example' },
        { host: 'evil.example:8443', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
      ]) {
        const res = await rawRequest(configured.base, '/app-config.json', headers);
        expect(res.status).toBe(200);
        expect(res.body).not.toContain('evil.example');
        expect(JSON.parse(res.body).identity).toEqual({
          url: 'https://rotunda.example.org',
          realm: 'rotunda',
          clientId: 'rotunda-web',
        });
      }
    } finally {
      await configured.close();
    }
  });

  it('sends security headers', async () => {
    const res = await fetch(`${gateway.base}/api/news`);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('serves the shell for app routes, remotes under /mf, and the remotes config', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'rotunda-web-'));
    for (const app of ['shell', 'mf-feed', 'mf-directory', 'mf-organizations', 'mf-profile']) {
      mkdirSync(join(webRoot, app, 'dist', 'static'), { recursive: true });
      writeFileSync(join(webRoot, app, 'dist', 'index.html'), `<title>${app}</title>`);
      writeFileSync(join(webRoot, app, 'dist', 'mf-manifest.json'), '{}');
      writeFileSync(join(webRoot, app, 'dist', 'static', 'main.3f2a1b.js'), 'console.log(1)');
    }
    const web = await serve({ ...env, SERVE_WEB: 'true', WEB_ROOT: webRoot });
    const page = await fetch(`${web.base}/organization/42`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toBe('<title>shell</title>');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const manifest = await fetch(`${web.base}/mf/feed/mf-manifest.json`);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    const asset = await fetch(`${web.base}/mf/directory/static/main.3f2a1b.js`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await (await fetch(`${web.base}/remotes.json`)).json()).toEqual({
      mf_feed: '/mf/feed/mf-manifest.json',
      mf_directory: '/mf/directory/mf-manifest.json',
      mf_organizations: '/mf/organizations/mf-manifest.json',
      mf_profile: '/mf/profile/mf-manifest.json',
    });
    expect((await fetch(`${web.base}/healthz`)).status).toBe(200);
    await web.close();
  });
});
