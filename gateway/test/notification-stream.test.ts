// GET /api/notifications/stream against a fake NotificationService on real gRPC (ADR 0042): the member's count on
// connect and on every change, from whichever of two gateway workers holds the connection (each with its one watch
// of the service), within 2 s; the watch opened again after the service ended it, every held connection then sent
// its current count (a watch that had listened logged as news, one that cannot open as a warning); the stream never
// compressed nor cached; ended when its session ends or its token expires; and the caps per member and per process.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_MESSAGES, STREAMS_PER_MEMBER } from '../src/http/unread-streams.ts';
import { unreadStreamsHeld } from '../src/telemetry/notifications.ts';
import { captureLog } from './support/captured-log.ts';
import {
  accessToken,
  type FakeAuth,
  MEMBER,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import { type FakeNotification, startFakeNotification } from './support/fake-notification.ts';

/**
 * What docs/product.md#9-business-constants-and-limits allows between a change and its event on any replica.
 */
const WITHIN_MS = 2000;
const OTHER_MEMBER = 'c0ffee00-7c1e-4d8a-9a43-1d2f6b1f0a02';

let key: SigningKey;
let auth: FakeAuth;
let notifications: FakeNotification;
let first: RunningGateway;
let second: RunningGateway;
let member: Record<string, string>;
const opened: LiveStream[] = [];

beforeAll(async () => {
  key = await signingKey('key-1');
  [auth, notifications] = await Promise.all([startFakeAuth([key]), startFakeNotification()]);
  const env = { AUTH_SERVICE_ADDR: auth.address, NOTIFICATION_SERVICE_ADDR: notifications.address };
  [first, second] = await Promise.all([startGateway(env), startGateway(env)]);
  member = { authorization: `Bearer ${await accessToken(key)}` };
});
afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
  notifications.reset();
  auth.reset();
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
  await Promise.all([auth.server.shutdown(), notifications.server.shutdown()]);
});

interface LiveStream {
  status: number;
  headers: Headers;
  /** Every unread count received, in order. */
  counts: number[];
  /** Comment lines received (keep-alives). */
  comments: () => number;
  ended: () => boolean;
  close: () => void;
}

/** Opens the stream and reads its events as they arrive. */
async function openStream(gateway: RunningGateway, headers: Record<string, string>): Promise<LiveStream> {
  const abort = new AbortController();
  const res = await fetch(`${gateway.base}/api/notifications/stream`, {
    headers: { 'accept-encoding': 'br, gzip', ...headers },
    signal: abort.signal,
  });
  const counts: number[] = [];
  let comments = 0;
  let ended = false;
  const stream: LiveStream = {
    status: res.status,
    headers: res.headers,
    counts,
    comments: () => comments,
    ended: () => ended,
    close: () => abort.abort(),
  };
  opened.push(stream);
  if (res.status !== 200 || !res.body) {
    ended = true;
    return stream;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          for (const line of buffer.slice(0, end).split('\n'))
            if (line.startsWith('data: ')) counts.push(JSON.parse(line.slice(6)).unread_count);
            else if (line.startsWith(':')) comments += 1;
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // Aborted by the test.
    }
    ended = true;
  })();
  return stream;
}

describe('the live unread count', () => {
  it('sends the count on connect, as an uncompressed, uncached event stream', async () => {
    notifications.unread.set(MEMBER.sub, 3);
    const stream = await openStream(first, member);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    expect(stream.headers.get('content-encoding')).toBeNull();
    await expect.poll(() => stream.counts).toEqual([3]);
    expect(notifications.callsTo('getUnreadCount')[0]?.caller?.userId).toBe(MEMBER.sub);
  });

  it('takes the token in x-auth-token as well', async () => {
    const stream = await openStream(first, { 'x-auth-token': await accessToken(key) });
    expect(stream.status).toBe(200);
    await expect.poll(() => stream.counts).toEqual([0]);
  });

  it('reaches the member on both gateway workers within 2 s, each worker holding one watch', async () => {
    const streams = await Promise.all([
      openStream(first, member),
      openStream(first, member),
      openStream(second, member),
    ]);
    const other = await openStream(second, { authorization: `Bearer ${await otherMembersToken()}` });
    for (const stream of [...streams, other]) await expect.poll(() => stream.counts).toEqual([0]);
    expect(notifications.watches()).toBe(2);
    // The two workers of this test process share one metrics registry: they hold the four streams between them.
    await expect.poll(async () => (await unreadStreamsHeld.get()).values[0]?.value).toBe(4);

    const changedAt = Date.now();
    notifications.announce(MEMBER.sub, 4);
    for (const stream of streams)
      await expect.poll(() => stream.counts, { timeout: WITHIN_MS }).toEqual([0, 4]);
    expect(Date.now() - changedAt).toBeLessThan(WITHIN_MS);
    // Another member's change is theirs alone.
    notifications.announce(OTHER_MEMBER, 9);
    await expect.poll(() => other.counts, { timeout: WITHIN_MS }).toEqual([0, 9]);
    expect(streams.map((stream) => stream.counts)).toEqual([
      [0, 4],
      [0, 4],
      [0, 4],
    ]);
  });

  it('opens the watch again when the service ends it, and sends each connection its count again', async () => {
    const streams = [await openStream(first, member), await openStream(second, member)];
    for (const stream of streams) await expect.poll(() => stream.counts).toEqual([0]);
    await expect.poll(() => notifications.watches()).toBe(2);
    notifications.endWatches();
    // Changed while nobody was watching: never announced to the gateways.
    notifications.unread.set(MEMBER.sub, 6);
    await expect.poll(() => notifications.watches(), { timeout: 5000 }).toBe(2);
    for (const stream of streams) await expect.poll(() => stream.counts, { timeout: 5000 }).toEqual([0, 6]);
    // And the reopened watch carries changes as before.
    notifications.announce(MEMBER.sub, 7);
    for (const stream of streams)
      await expect.poll(() => stream.counts, { timeout: WITHIN_MS }).toEqual([0, 6, 7]);
  });

  it('logs a listening watch that ended as news, and a watch that cannot be opened as a warning', async () => {
    const log = captureLog();
    const env = { AUTH_SERVICE_ADDR: auth.address, NOTIFICATION_SERVICE_ADDR: notifications.address };
    const watched = await startGateway(env, undefined, log.logger);
    const away = await startGateway({ AUTH_SERVICE_ADDR: auth.address }, undefined, log.logger);
    const aboutTheWatch = () => log.lines.filter((line) => line.msg.includes('watch of unread counts'));
    try {
      const stream = await openStream(watched, member);
      await expect.poll(() => stream.counts).toEqual([0]);
      // Ended as the service's connections are rotated every minute: the stream is open again, nobody warned.
      notifications.endWatches();
      await expect.poll(() => aboutTheWatch()).toHaveLength(1);
      expect(aboutTheWatch()[0]).toMatchObject({
        level: 30,
        msg: 'the watch of unread counts ended; opening it again',
      });
      notifications.announce(MEMBER.sub, 3);
      await expect.poll(() => stream.counts, { timeout: 5000 }).toEqual([0, 3]);
      stream.close();

      log.lines.length = 0;
      expect((await fetch(`${away.base}/api/notifications/stream`, { headers: member })).status).toBe(503);
      await expect.poll(() => aboutTheWatch().length).toBeGreaterThan(0);
      expect(aboutTheWatch()[0]).toMatchObject({
        level: 40,
        msg: 'the watch of unread counts could not be opened; trying again after a pause',
      });
    } finally {
      await Promise.all([watched.close(), away.close()]);
    }
  });

  it('ends when the member’s session ends', async () => {
    // A session of its own: the gateways refuse an ended session's tokens from then on.
    const ending = 'session-ending';
    const token = await accessToken(key, { claims: { sid: ending } });
    const stream = await openStream(first, { authorization: `Bearer ${token}` });
    await expect.poll(() => stream.counts).toEqual([0]);
    auth.endedSessions.push(ending);
    await expect.poll(() => stream.ended(), { timeout: 3000 }).toBe(true);
  });

  it('ends when its access token expires, for the client to reconnect with a fresh one', async () => {
    const stream = await openStream(first, {
      authorization: `Bearer ${await accessToken(key, { expiresIn: 2 })}`,
    });
    await expect.poll(() => stream.counts).toEqual([0]);
    expect(stream.ended()).toBe(false);
    await expect.poll(() => stream.ended(), { timeout: 5000 }).toBe(true);
  });

  it('refuses a token past its expiry that other routes still take within the clock tolerance', async () => {
    const lapsed = { authorization: `Bearer ${await accessToken(key, { expiresIn: -5 })}` };
    const refused = await fetch(`${first.base}/api/notifications/stream`, { headers: lapsed });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ errors: [{ msg: STREAM_MESSAGES.expired }] });
    expect((await fetch(`${first.base}/api/notifications`, { headers: lapsed })).status).toBe(200);
  });

  it(`holds at most ${STREAMS_PER_MEMBER} streams per member (429), and the process’s cap (503)`, async () => {
    const mine = await Promise.all(
      Array.from({ length: STREAMS_PER_MEMBER }, () => openStream(first, member)),
    );
    expect(mine.map((stream) => stream.status)).toEqual(mine.map(() => 200));
    const refused = await fetch(`${first.base}/api/notifications/stream`, { headers: member });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ errors: [{ msg: STREAM_MESSAGES.tooMany }] });
    // One closed makes room again.
    mine[0]?.close();
    await expect.poll(async () => (await openStream(first, member)).status, { timeout: WITHIN_MS }).toBe(200);

    const small = await startGateway({
      AUTH_SERVICE_ADDR: auth.address,
      NOTIFICATION_SERVICE_ADDR: notifications.address,
      NOTIFICATION_STREAMS_AT_ONCE: '1',
    });
    try {
      expect((await openStream(small, member)).status).toBe(200);
      const full = await fetch(`${small.base}/api/notifications/stream`, { headers: member });
      expect(full.status).toBe(503);
      expect(full.headers.get('retry-after')).toBe('5');
      expect(await full.json()).toEqual({ errors: [{ msg: STREAM_MESSAGES.full }] });
    } finally {
      for (const stream of opened.splice(0)) stream.close();
      await small.close();
    }
  });

  it('sends a comment line while nothing changes, so proxies keep an idle stream open', async () => {
    const chatty = await startGateway(
      { AUTH_SERVICE_ADDR: auth.address, NOTIFICATION_SERVICE_ADDR: notifications.address },
      undefined,
      undefined,
      { keepAliveMs: 100 },
    );
    try {
      const stream = await openStream(chatty, member);
      await expect.poll(() => stream.comments()).toBeGreaterThanOrEqual(2);
      expect(stream.counts).toEqual([0]);
    } finally {
      for (const stream of opened.splice(0)) stream.close();
      await chatty.close();
    }
  });

  it('answers 503 as JSON when the notification service cannot tell the count', async () => {
    const down = await startGateway({ AUTH_SERVICE_ADDR: auth.address });
    try {
      const res = await fetch(`${down.base}/api/notifications/stream`, { headers: member });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        errors: [{ msg: 'The notification service is unavailable. Please try again shortly.' }],
      });
    } finally {
      await down.close();
    }
  });
});

function otherMembersToken() {
  return accessToken(key, { claims: { sub: OTHER_MEMBER, sid: 'session-2' } });
}
