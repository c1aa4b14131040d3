// The gateway process (src/main.ts) against slow clients and long answers, with REQUEST_TIMEOUT_MS shortened to
// 1 s: a request whose body stalls halfway is answered 408 and closed once the timeout passes (Node's own is
// 300 s), whether the route reads it as JSON or as an upload; an export answered slowly and read slowly for
// longer than the timeout still arrives whole (the timeout covers receiving the request, never the answer); and
// a large export logs no MaxListenersExceededWarning.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, type FakeAuth, signingKey, startFakeAuth } from './support/fake-auth.ts';
import { type FakeProfile, startFakeProfile } from './support/fake-profile.ts';
import { type GatewayProcess, startGatewayProcess } from './support/gateway-process.ts';

const REQUEST_TIMEOUT_MS = 1000;

let auth: FakeAuth;
let profile: FakeProfile;
let gateway: GatewayProcess;
let token: string;

beforeAll(async () => {
  const key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  profile = await startFakeProfile();
  gateway = await startGatewayProcess({
    AUTH_SERVICE_ADDR: auth.address,
    PROFILE_SERVICE_ADDR: profile.address,
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  });
  token = await accessToken(key);
}, 30_000);
afterAll(async () => {
  await gateway?.stop();
  await profile?.server.shutdown();
  await auth?.server.shutdown();
});

interface RawAnswer {
  /** Everything the gateway wrote before it closed the connection. */
  text: string;
  /** Milliseconds from the last byte sent to the connection's close. */
  closedAfterMs: number;
}

/** Sends `head` and `partial` on a raw socket, then nothing more, and waits for the gateway to close it. */
function stallAfter(head: string, partial: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(gateway.port, '127.0.0.1');
    let text = '';
    let sentAt = 0;
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - sentAt }));
    socket.write(head);
    socket.write(partial, () => (sentAt = Date.now()));
    // A gateway that never cuts it fails the test by its timeout rather than hanging the run.
    socket.setTimeout(10_000, () => socket.destroy(new Error('the gateway kept the stalled request open')));
  });
}

describe('a request body that stalls', () => {
  it('is answered 408 and closed once REQUEST_TIMEOUT_MS passes (a JSON body)', async () => {
    const body = JSON.stringify({ email: 'member@demo.ca.gov', password: 'x'.repeat(40) });
    const answer = await stallAfter(
      'POST /auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\n\r\n`,
      body.slice(0, body.length / 2),
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 200);
    expect(answer.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 2500);
    expect(auth.callsTo('login')).toEqual([]);
  });

  it('is answered 408 and closed once REQUEST_TIMEOUT_MS passes (an upload), and the upload never reaches the service', async () => {
    const boundary = 'stalled-boundary';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="profile_picture"; filename="me.png"\r\n` +
      'Content-Type: image/png\r\n\r\n';
    const answer = await stallAfter(
      'POST /api/profiles/upload-profile-picture HTTP/1.1\r\nHost: localhost\r\n' +
        `X-Auth-Token: ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${head.length + 2_000_000}\r\n\r\n`,
      Buffer.concat([Buffer.from(head), randomBytes(500_000)]),
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 2500);
    expect(profile.callsTo('uploadPicture')).toEqual([]);
  });
});

/** A downloaded export read `pieceBytes` at a time every `everyMs`: its status, its bytes, how long it took. */
function readSlowly(path: string, pieceBytes: number, everyMs: number) {
  return new Promise<{ status: number; bytes: Buffer; tookMs: number }>((resolve, reject) => {
    const started = Date.now();
    const req = request(
      `${gateway.base}${path}`,
      { headers: { 'x-auth-token': token, 'accept-encoding': 'identity' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.pause();
        const tick = setInterval(() => {
          const chunk = res.read(pieceBytes) ?? res.read();
          if (chunk) chunks.push(chunk);
        }, everyMs);
        res.on('readable', () => {});
        res.on('end', () => {
          clearInterval(tick);
          resolve({
            status: res.statusCode ?? 0,
            bytes: Buffer.concat(chunks),
            tookMs: Date.now() - started,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const people = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    profile_id: i + 1,
    first_name: `Person${i + 1}`,
    // Incompressible, so the answer is large on the wire as well.
    last_name: randomBytes(90).toString('hex'),
    work_email: `person${i + 1}@agency.ca.gov`,
  }));

describe('a long answer', () => {
  it('is not cut by the request timeout: an export answered late and read slowly arrives whole', async () => {
    const everyone = people(3000);
    profile.answer('exportDirectory', async () => {
      await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS * 1.5));
      return { profiles: everyone };
    });
    const { status, bytes, tookMs } = await readSlowly('/api/profiles/search/export.csv', 64 * 1024, 100);
    expect(status).toBe(200);
    expect(tookMs).toBeGreaterThan(REQUEST_TIMEOUT_MS * 2.5);
    const rows = parse(bytes, { bom: true, columns: true }) as { first_name: string }[];
    expect(rows.map((row) => row.first_name)).toEqual(everyone.map((person) => person.first_name));
    profile.reset();
  });

  it('a large export, read slowly, logs no MaxListenersExceededWarning and arrives whole', async () => {
    const everyone = people(5000);
    profile.answer('exportDirectory', async () => ({ profiles: everyone }));
    const { status, bytes } = await readSlowly('/api/profiles/search/export.csv', 4096, 1);
    expect(status).toBe(200);
    const rows = parse(bytes, { bom: true, columns: true }) as { last_name: string }[];
    expect(rows.map((row) => row.last_name)).toEqual(everyone.map((person) => person.last_name));
    // Node writes its process warnings to stderr, which the test reads with the log lines.
    expect(gateway.output()).not.toMatch(/MaxListenersExceededWarning|Warning:/);
    profile.reset();
  });
});
