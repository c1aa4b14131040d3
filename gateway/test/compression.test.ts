// The gateway's own text answers compressed on the fly: a JSON answer of at least 1 KB as brotli to a client that
// accepts it, gzip to a gzip-only client and as it is to any other, each decoding to the same JSON; the whole
// directory, streamed as it is read, too; a small answer and an image never; the request still counted as answered.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createObjectStore, objectKey } from '@rotunda/images';
import { startTestS3, type TestS3 } from '@rotunda/images/testing';
import { type MetricsListener, serveMetrics } from '@rotunda/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  accessToken,
  type FakeAuth,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import { DIRECTORY_CARD, type FakeProfile, PROFILE, startFakeProfile } from './support/fake-profile.ts';

const CHROME = 'gzip, deflate, br, zstd';
const LOGO = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(4096, 7)]);
const LOGO_KEY = objectKey('logos', 'png');

let key: SigningKey;
let auth: FakeAuth;
let profile: FakeProfile;
let s3: TestS3;
let gateway: RunningGateway;
let metrics: MetricsListener;
let member: Record<string, string>;

beforeAll(async () => {
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  profile = await startFakeProfile();
  s3 = await startTestS3('rotunda-media');
  await createObjectStore(s3.config).put(LOGO_KEY, LOGO, 'image/png');
  gateway = await startGateway({
    AUTH_SERVICE_ADDR: auth.address,
    PROFILE_SERVICE_ADDR: profile.address,
    S3_ENDPOINT: s3.config.endpoint,
    S3_ACCESS_KEY: s3.config.accessKey,
    S3_SECRET_KEY: s3.config.secretKey,
    S3_BUCKET: s3.config.bucket,
    S3_REGION: s3.config.region,
  });
  member = { 'x-auth-token': await accessToken(key) };
  metrics = await serveMetrics(0, '127.0.0.1');
}, 60_000);
afterEach(() => profile.reset());
afterAll(async () => {
  await metrics.close();
  await gateway.close();
  await s3.stop();
  await profile.server.shutdown();
  await auth.server.shutdown();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent, not decoded. */
  body: Buffer;
}

/** A GET whose answer is read as sent (fetch would decode it and ask for compression itself). */
function raw(path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const { port } = new URL(gateway.base);
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

function decoded({ headers, body }: RawAnswer): unknown {
  const encoding = headers['content-encoding'];
  const bytes =
    encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
  return JSON.parse(bytes.toString('utf8'));
}

const cards = Array.from({ length: 30 }, (_, i) => ({ ...DIRECTORY_CARD, profile_id: i + 1 }));

describe('a JSON answer of at least 1 KB', () => {
  it.each([
    ['a browser', 'br', CHROME],
    ['a gzip-only client', 'gzip', 'gzip'],
    ['a client accepting neither', undefined, 'identity'],
    ['a client that sends no Accept-Encoding', undefined, ''],
  ])('is sent to %s as %s, decoding to the same JSON', async (_who, encoding, accept) => {
    profile.answer('searchDirectory', async () => ({
      profiles: cards,
      total: 30,
      total_is_lower_bound: false,
    }));
    const res = await raw('/api/profiles/search', {
      ...member,
      ...(accept ? { 'accept-encoding': accept } : {}),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.vary).toContain('Accept-Encoding');
    const answer = decoded(res) as { profiles: { profile_id: number }[]; total: number };
    expect(answer.profiles.map((card) => card.profile_id)).toEqual(cards.map((card) => card.profile_id));
    expect(answer.total).toBe(30);
    if (encoding) expect(res.body.length).toBeLessThan(JSON.stringify(answer).length / 4);
  });

  it('streams the whole directory compressed as it is read, decoding to every profile in order', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({ ...PROFILE, profile_id: i + 1 }));
    profile.answer('listDirectory', async () => ({ profiles: many }));
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.name);
    process.on('warning', warned);
    const res = await raw('/api/profiles/directory', { ...member, 'accept-encoding': CHROME }).finally(() =>
      process.off('warning', warned),
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    const body = decoded(res) as { profile_id: number }[];
    expect(body.map((p) => p.profile_id)).toEqual(many.map((p) => p.profile_id));
    // Waiting for the compressed stream to drain again and again must not pile listeners on the answer.
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('is counted in the request metrics as answered, with its route and status', async () => {
    const count = async () => {
      const text = await (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text();
      const wanted = 'rotunda_http_requests_total{method="GET",route="/api/profiles/search",status="200"} ';
      return Number(
        text
          .split('\n')
          .find((line) => line.startsWith(wanted))
          ?.slice(wanted.length) ?? 0,
      );
    };
    profile.answer('searchDirectory', async () => ({
      profiles: cards,
      total: 30,
      total_is_lower_bound: false,
    }));
    const before = await count();
    const res = await raw('/api/profiles/search', { ...member, 'accept-encoding': CHROME });
    expect(res.headers['content-encoding']).toBe('br');
    expect((await count()) - before).toBe(1);
  });
});

describe('answers that are not compressed', () => {
  it('a JSON answer under 1 KB is sent as it is', async () => {
    const res = await raw('/app-config.json', { 'accept-encoding': CHROME });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(res.body.length));
    expect(res.body.length).toBeLessThan(1024);
    expect(decoded(res)).toMatchObject({ identity: { realm: 'rotunda' } });
  });

  it('an image from /media is sent as it is, its length and bytes unchanged', async () => {
    const res = await raw(`/media/${LOGO_KEY}`, { 'accept-encoding': CHROME });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(LOGO.length));
    expect(res.body.equals(LOGO)).toBe(true);
  });
});
