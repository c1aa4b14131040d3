// Malformed requests against the gateway running as its own process (src/main.ts) over real sockets, with fake
// services on real gRPC: a truncated, malformed or abandoned multipart upload, a NUL character in a body, query
// or path, broken or unknown compression, invalid JSON, bad percent-encoding, oversize headers and bodies. Each
// is answered 400, 413, 415 or 431 with a clear message in the gateway's error shape, never a 500; nothing is
// forwarded to a service; and the process is still there, serving the next request.
import { request } from 'node:http';
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MALFORMED_ADDRESS } from '../src/http/errors.ts';
import { DEFAULT_UPLOAD_MESSAGES } from '../src/http/multipart.ts';
import { NUL_IN_ADDRESS, nulInFieldMessage } from '../src/http/nul.ts';
import { accessToken, type FakeAuth, signingKey, startFakeAuth } from './support/fake-auth.ts';
import { type FakeOrg, startFakeOrg } from './support/fake-org.ts';
import { type FakePost, startFakePost } from './support/fake-post.ts';
import { type FakeProfile, startFakeProfile } from './support/fake-profile.ts';
import { type GatewayProcess, startGatewayProcess } from './support/gateway-process.ts';

let auth: FakeAuth;
let profile: FakeProfile;
let org: FakeOrg;
let posts: FakePost;
let gateway: GatewayProcess;
let member: Record<string, string>;
let contributor: Record<string, string>;

beforeAll(async () => {
  const key = await signingKey('key-1');
  [auth, profile, org, posts] = await Promise.all([
    startFakeAuth([key]),
    startFakeProfile(),
    startFakeOrg(),
    startFakePost(),
  ]);
  gateway = await startGatewayProcess({
    AUTH_SERVICE_ADDR: auth.address,
    PROFILE_SERVICE_ADDR: profile.address,
    ORG_SERVICE_ADDR: org.address,
    POST_SERVICE_ADDR: posts.address,
  });
  member = { 'x-auth-token': await accessToken(key) };
  contributor = { 'x-auth-token': await accessToken(key, { roles: ['contributor'] }) };
});
afterEach(() => {
  for (const fake of [auth, profile, org, posts]) fake.reset();
});
afterAll(async () => {
  await gateway?.stop();
  await Promise.all([auth, profile, org, posts].map((fake) => fake?.server.shutdown()));
});

interface Answer {
  status: number;
  body: string;
  type: string;
}

/** One request with the path, headers and body bytes exactly as given (fetch would normalize them). */
function send(
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Answer> {
  // Node's client frames a GET's body only when told its length.
  const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: gateway.port, method, path, headers: { ...length, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text, type: String(res.headers['content-type']) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const json = (headers: Record<string, string> = {}) => ({ 'content-type': 'application/json', ...headers });

/** Asserts the gateway's error shape with exactly this status and message. */
function expectRefusal(answer: Answer, status: number, message: string, what: string) {
  expect(answer.status, what).toBe(status);
  expect(answer.type, what).toMatch(/^application\/json/);
  expect(JSON.parse(answer.body), what).toEqual({ errors: [{ msg: message }] });
}

/**
 * What the fakes were asked, leaving out the key fetches every token check makes, the post types read by
 * expectStillServing, and the upload allowance an upload is counted against before its body is read (ADR 0038).
 */
const forwarded = () => [
  ...auth.calls.filter((call) => call.method !== 'getJwks' && call.method !== 'consumeQuota'),
  ...profile.calls,
  ...org.calls,
  ...posts.calls.filter((call) => call.method !== 'listPostTypes'),
];

/** The process is up and answers an ordinary request as usual. */
async function expectStillServing() {
  expect(gateway.alive()).toBe(true);
  const answer = await send('GET', '/api/posts/post-types');
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body)).toHaveLength(2);
}

describe('multipart uploads', () => {
  const truncated =
    '--B\r\nContent-Disposition: form-data; name="profile_picture"; filename="x.png"\r\n\r\nPNG';
  const uploadRoutes = [
    { path: '/api/profiles/upload-profile-picture', field: 'profile_picture', headers: () => member },
    { path: '/api/orgs/upload-organization-logo', field: 'logo', headers: () => contributor },
  ];
  const multipart = (headers: Record<string, string>) => ({
    ...headers,
    'content-type': 'multipart/form-data; boundary=B',
  });

  it('answers 400 to a body that ends before its closing boundary, and keeps serving', async () => {
    for (const route of uploadRoutes) {
      for (const body of [
        truncated.replace('profile_picture', route.field),
        // The file part under another name, which is skipped rather than read: its stream fails all the same.
        truncated.replace('profile_picture', 'other'),
        '--B\r\nContent-Disposition: form-data; name="organization_id"\r\n\r\n12',
        '--B\r\n',
      ]) {
        const answer = await send('POST', route.path, { headers: multipart(route.headers()), body });
        expectRefusal(answer, 400, DEFAULT_UPLOAD_MESSAGES.incomplete, `${route.path} ${body}`);
        await expectStillServing();
      }
    }
    expect(forwarded()).toEqual([]);
  });

  it('answers 400 to malformed multipart framing', async () => {
    for (const route of uploadRoutes) {
      const body = '--B\r\nContent-Disposition: form-data; name="a"\r\nno colon here\r\n\r\nx\r\n--B--\r\n';
      const answer = await send('POST', route.path, { headers: multipart(route.headers()), body });
      expectRefusal(answer, 400, DEFAULT_UPLOAD_MESSAGES.unreadable, route.path);
    }
    await expectStillServing();
    expect(forwarded()).toEqual([]);
  });

  it('survives a client that disconnects in the middle of an upload', async () => {
    for (const route of uploadRoutes) {
      await new Promise<void>((resolve) => {
        const req = request({
          host: '127.0.0.1',
          port: gateway.port,
          method: 'POST',
          path: route.path,
          headers: { ...multipart(route.headers()), 'content-length': '100000' },
        });
        req.on('error', () => resolve());
        req.write(`--B\r\nContent-Disposition: form-data; name="${route.field}"; filename="x.png"\r\n\r\n`);
        req.write(Buffer.alloc(4096, 1));
        setTimeout(() => req.destroy(), 200);
        req.on('close', () => resolve());
      });
      // The gateway notices the connection closing; give it a moment to do so before checking it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expectStillServing();
    }
    expect(forwarded()).toEqual([]);
  });

  it('still takes a whole upload after all of that', async () => {
    const body =
      '--B\r\nContent-Disposition: form-data; name="profile_picture"; filename="x.jpg"\r\n' +
      'Content-Type: image/jpeg\r\n\r\n\xff\xd8\xff\xe0JFIF\r\n--B--\r\n';
    const answer = await send('POST', '/api/profiles/upload-profile-picture', {
      headers: multipart(member),
      body: Buffer.from(body, 'latin1'),
    });
    expect(answer.status).toBe(200);
    expect(profile.callsTo('uploadPicture')).toHaveLength(1);
  });
});

describe('NUL characters', () => {
  const writes: [string, Record<string, unknown>, string, () => Record<string, string>][] = [
    ['/auth/register', { first_name: 'A\u0000da', last_name: 'L' }, 'first_name', () => ({})],
    ['/auth/login', { email: 'ada@dof.ca.gov', password: 'pass\u0000word' }, 'password', () => ({})],
    ['/api/profiles/bio/7', { user_bio: 'Hello\u0000' }, 'user_bio', () => member],
    ['/api/issues/add-issue-area', { issue_name: '\u0000' }, 'issue_name', () => member],
    [
      '/api/orgs/add-organization',
      { organization_name: 'Harbor Lights', group_type: 'Associations', city: 'Sacra\u0000mento' },
      'city',
      () => member,
    ],
    [
      '/api/posts/add-post',
      { post_title: 'Hearing', post_body: '<p>x\u0000</p>', post_type: 1 },
      'post_body',
      () => member,
    ],
    ['/api/posts/add-comment', { post_id: 7, comment_body: 'Hi\u0000' }, 'comment_body', () => member],
    ['/api/profiles/update-profile', { links: ['https://a.example', 'x\u0000'] }, 'links[1]', () => member],
    [
      '/api/profiles/update-profile',
      { contact: { city: { name: '\u0000' } } },
      'contact.city.name',
      () => member,
    ],
  ];

  it('refuses a NUL in any text of a JSON body with 400, naming the field, before forwarding', async () => {
    for (const [path, body, field, headers] of writes) {
      const answer = await send('POST', path, { headers: json(headers()), body: JSON.stringify(body) });
      expectRefusal(answer, 400, nulInFieldMessage(field), path);
    }
    const key = await send('POST', '/api/posts/add-comment', {
      headers: json(member),
      body: '{"post_id": 7, "comment_body": "Hi", "x\\u0000": 1}',
    });
    expectRefusal(key, 400, nulInFieldMessage('A field name'), 'a NUL in a key');
    expect(forwarded()).toEqual([]);
    await expectStillServing();
  });

  it('forwards the same bodies without the NUL (the refusal is the NUL, nothing else)', async () => {
    const answer = await send('POST', '/api/posts/add-comment', {
      headers: json(member),
      body: JSON.stringify({ post_id: 7, comment_body: 'Hi' }),
    });
    expect(answer.status).toBe(201);
    expect(posts.callsTo('addComment')).toHaveLength(1);
  });

  it('refuses a NUL in a query string or a path parameter with 400', async () => {
    for (const [method, path, headers] of [
      ['GET', '/api/profiles/search?search=el%00ena', member],
      ['GET', '/api/orgs?search=%00', member],
      ['GET', '/api/orgs/organization-name/Capitol%00Bridge', member],
      ['GET', '/api/orgs/division-name/%00', member],
      ['GET', '/api/profiles/profile/7%00', member],
      ['POST', '/auth/reset-password/abc%00def', {}],
      ['POST', '/api/posts/get-likes/%00', member],
    ] as const) {
      const answer = await send(method, path, { headers: json(headers), body: '{"password":"x"}' });
      expectRefusal(answer, 400, NUL_IN_ADDRESS, path);
    }
    expect(forwarded()).toEqual([]);
    await expectStillServing();
  });
});

describe('compressed bodies', () => {
  const routes: [string, () => Record<string, string>][] = [
    ['/auth/check-email', () => ({})],
    ['/api/posts/add-comment', () => member],
    ['/api/issues/add-issue-area', () => member],
    ['/api/orgs/update-organization', () => contributor],
  ];
  const DECOMPRESS =
    'The request body could not be decompressed: it is not valid data for its Content-Encoding.';
  const UNSUPPORTED =
    'The request body’s Content-Encoding is not supported: send it uncompressed, or as gzip, deflate or br.';

  it('answers 400 to a body that is not what its Content-Encoding says', async () => {
    const whole = gzipSync(JSON.stringify({ email: 'ada@dof.ca.gov' }));
    for (const [path, headers] of routes) {
      for (const [encoding, body] of [
        ['gzip', '{"email": "ada@dof.ca.gov"}'],
        ['gzip', whole.subarray(0, whole.length - 6)],
        ['deflate', 'not deflate data'],
        ['br', Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x01])],
        ['GZIP', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00])],
      ] as const) {
        const answer = await send('POST', path, {
          headers: json({ ...headers(), 'content-encoding': encoding }),
          body,
        });
        expectRefusal(answer, 400, DECOMPRESS, `${path} ${encoding}`);
      }
    }
    expect(forwarded()).toEqual([]);
    await expectStillServing();
  });

  it('answers 415 to a Content-Encoding it does not know', async () => {
    for (const [path, headers] of routes) {
      for (const encoding of ['compress', 'x-unknown', 'gzip, gzip']) {
        const answer = await send('POST', path, {
          headers: json({ ...headers(), 'content-encoding': encoding }),
          body: '{}',
        });
        expectRefusal(answer, 415, UNSUPPORTED, `${path} ${encoding}`);
      }
    }
    expect(forwarded()).toEqual([]);
  });

  it('answers 413 to a small compressed body that inflates past the limit', async () => {
    const bomb = gzipSync(JSON.stringify({ comment_body: ' '.repeat(4 * 1024 * 1024), post_id: 7 }));
    expect(bomb.length).toBeLessThan(10_000);
    const answer = await send('POST', '/api/posts/add-comment', {
      headers: json({ ...member, 'content-encoding': 'gzip' }),
      body: bomb,
    });
    expectRefusal(answer, 413, 'The request body is too large (at most 1 MB).', 'gzip bomb');
    expect(forwarded()).toEqual([]);
  });

  it('reads well-formed gzip, deflate and br bodies', async () => {
    const body = JSON.stringify({ post_id: 7, comment_body: 'Compressed hello' });
    for (const [encoding, bytes] of [
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', brotliCompressSync(body)],
    ] as const) {
      const answer = await send('POST', '/api/posts/add-comment', {
        headers: json({ ...member, 'content-encoding': encoding }),
        body: bytes,
      });
      expect(answer.status, encoding).toBe(201);
    }
    expect(posts.callsTo('addComment').map((call) => call.request.comment_body)).toEqual([
      'Compressed hello',
      'Compressed hello',
      'Compressed hello',
    ]);
  });
});

describe('unreadable bodies, addresses and headers', () => {
  it('answers 400 to invalid JSON on every kind of route', async () => {
    for (const [path, headers] of [
      ['/auth/login', {}],
      ['/auth/reset-password/abc', {}],
      ['/api/posts/add-post', member],
      ['/api/profiles/update-profile', member],
      ['/api/orgs/add-division', member],
    ] as const) {
      for (const body of ['{"email": ', '{email: 1}', "{'a': 1}", 'null', '"text"', '{"a": 1}}']) {
        const answer = await send('POST', path, { headers: json(headers), body });
        expectRefusal(answer, 400, 'The request body is not valid JSON.', `${path} ${body}`);
      }
    }
    expect(forwarded()).toEqual([]);
  });

  it('answers 415 to a charset it cannot decode', async () => {
    const answer = await send('POST', '/api/posts/add-comment', {
      headers: { ...member, 'content-type': 'application/json; charset=klingon' },
      body: '{}',
    });
    expectRefusal(answer, 415, 'The request body’s charset is not supported: send it as UTF-8.', 'charset');
  });

  it('answers 413 to a JSON body over the limit', async () => {
    const big = (bytes: number) => JSON.stringify({ comment_body: 'x'.repeat(bytes), post_id: 7 });
    for (const [path, headers, bytes, most] of [
      ['/api/posts/add-comment', member, 1024 * 1024, '1 MB'],
      ['/api/profiles/update-profile', member, 1024 * 1024, '1 MB'],
      ['/auth/register', {}, 64 * 1024, '64 KB'],
      ['/auth/login', {}, 64 * 1024, '64 KB'],
    ] as const) {
      const answer = await send('POST', path, { headers: json(headers), body: big(bytes) });
      expectRefusal(answer, 413, `The request body is too large (at most ${most}).`, path);
    }
    expect(forwarded()).toEqual([]);
    await expectStillServing();
  });

  it('answers 400 to path parameters that are not valid percent-encoding', async () => {
    for (const param of ['%', '%zz', '%C0%AF', '%E0%A4%A', '%FF', 'ab%2']) {
      for (const [method, path, headers] of [
        ['GET', `/api/profiles/profile/${param}`, member],
        ['GET', `/api/orgs/${param}`, member],
        ['GET', `/api/orgs/organization-name/${param}`, member],
        ['GET', `/api/orgs/divisions/${param}`, member],
        ['GET', `/api/posts/post-type/${param}`, {}],
        ['POST', `/api/profiles/claim/${param}`, member],
        ['POST', `/auth/reset-password/${param}`, {}],
      ] as const) {
        const answer = await send(method, path, { headers: json(headers), body: '{}' });
        expectRefusal(answer, 400, MALFORMED_ADDRESS, path);
      }
    }
    expect(forwarded()).toEqual([]);
    await expectStillServing();
  });

  it('answers 431 to oversize headers (Node itself), and serves the next request', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(gateway.port, '127.0.0.1', () => {
        socket.write(
          `GET /api/posts/post-types HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        );
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    await expectStillServing();
  });

  it('logged no failed request and is still the same process', async () => {
    await expectStillServing();
    const failures = gateway.logLines().filter((line) => Number(line.level) >= 50);
    expect(failures).toEqual([]);
  });
});
