// Test helper: malformed requests for every REST route, and a small client that sends them. Two sources:
// `catalogRequests` (every route × every kind of malformation, the same each run) and `requestArbitrary`
// (fast-check: random mixes of the same ingredients, replayable by seed). Both are plain data, printed as they
// were sent when a test fails. Ids in bodies and paths never name a real record, so the fuzz changes no demo
// data; valid-looking auth bodies are avoided, so the fuzz does not use up the login and registration limits
// of the address the other specs log in from, and so are valid-looking new issue areas and organizations.
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { fillPath, pathParameters, type Route, routeKey } from './rest-routes.ts';

type Caller = 'visitor' | 'member' | 'forged-token';

export interface FuzzRequest {
  method: string;
  /** Path and query as sent: parameters are inserted raw, so '%zz' reaches the server as '%zz'. */
  target: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  caller: Caller;
  /** The route it was made for and what is wrong with it, for the failure report. */
  route: string;
  malformation: string;
}

/** An id no record has (below the gateway's 2^31 - 1 maximum, so it reaches the service). */
const NO_SUCH_ID = 2_147_483_600;

/** A valid-shaped body per JSON route: the malformations are made by changing one thing in it. */
export const TEMPLATES: Record<string, Record<string, unknown>> = {
  'POST /auth/verify': { captchaValue: 'bm90IGEgY2FwdGNoYQ==' },
  'POST /auth/check-email': { email: 'fuzz-nobody@fuzz.ca.gov' },
  'POST /auth/register': {
    first_name: 'Fuzz',
    last_name: 'Nobody',
    email: 'fuzz-nobody@fuzz.ca.gov',
    password: 'Rotunda#Fuzz2024',
    captchaValue: 'bm90IGEgY2FwdGNoYQ==',
  },
  'POST /auth/confirm-registration': { token: 'not-a-token' },
  'POST /auth/login': { email: 'fuzz-nobody@fuzz.ca.gov', password: 'Rotunda#Fuzz2024' },
  'POST /auth/logout': { refreshToken: 'not-a-token' },
  'POST /auth/request-password-reset': {
    email: 'fuzz-nobody@fuzz.ca.gov',
    reCaptcha_token: 'bm90IGEgY2FwdGNoYQ==',
  },
  'POST /auth/reset-password/:token': { password: 'Rotunda#Fuzz2024' },
  'POST /auth/update-password': { currentPassword: 'Not#TheCurrent1', newPassword: 'Rotunda#Fuzz2024' },
  // Agency sign-in: a domain no agency has, a code and state no sign-in started; Keycloak's form post, sent as JSON.
  'POST /auth/agency/start': { email: 'fuzz-nobody@fuzz.ca.gov' },
  'POST /auth/agency/complete': { code: 'not-a-code', state: 'not-a-state' },
  'POST /auth/backchannel-logout': { logout_token: 'not-a-token' },
  'POST /api/issues/add-issue-area': { issue_name: 'Fuzzing' },
  'POST /api/issues/add-user-issue': { profile_id: NO_SUCH_ID, issue_id: 1 },
  'DELETE /api/issues/delete-user-issue': { id: NO_SUCH_ID },
  'POST /api/orgs/add-organization': {
    organization_name: 'Fuzz Test Organization',
    group_type: 'Other',
    street_address: '1 Fuzz Way',
    city: 'Sacramento',
    state: 'CA',
    zip_code: '95814',
    website: 'https://fuzz.example',
    main_phone: '9165550100',
    linkedin_url: 'https://linkedin.example/fuzz',
  },
  'POST /api/orgs/update-organization': {
    organization_id: NO_SUCH_ID,
    organization_name: 'Fuzz Organization',
    street_address: '1 Fuzz Way',
    website: 'https://fuzz.example',
    lobby_filer_id: '1234567',
  },
  'POST /api/orgs/add-division': {
    organization_id: NO_SUCH_ID,
    division_name: 'Fuzz Division',
    division_type: 'Office',
    street_address: '1 Fuzz Way',
    city: 'Sacramento',
    state: 'CA',
    zip_code: '95814',
    division_phone: '9165550100',
    website: 'https://fuzz.example',
  },
  'POST /api/posts/all': { offset: 0, limit: 20, sort: 'recent', seed: 7, posttype_id: 1, search: 'fuzz' },
  'POST /api/posts/update-read-count': { post_id: NO_SUCH_ID },
  'POST /api/posts/add-post': {
    post_title: 'Fuzz',
    post_body: '<p>fuzz</p>',
    post_type: 9,
    event_location: 'Capitol',
    event_date: '2031-02-03',
    event_start: '12:00',
    event_end: '13:00',
    event_type: 1,
    mentions: [NO_SUCH_ID],
  },
  'POST /api/posts/update-post': {
    post_id: NO_SUCH_ID,
    post_title: 'Fuzz',
    post_body: '<p>fuzz</p>',
    event_location: 'Capitol',
    event_date: '2031-02-03',
    event_start: '12:00',
    event_end: '13:00',
    event_type: 1,
  },
  'DELETE /api/posts/delete-post': { post_id: NO_SUCH_ID },
  'POST /api/posts/add-comment': { post_id: NO_SUCH_ID, comment_body: 'fuzz', mentions: [NO_SUCH_ID] },
  'POST /api/posts/update-comment': { comment_id: NO_SUCH_ID, comment_body: 'fuzz' },
  'DELETE /api/posts/delete-comment': { comment_id: NO_SUCH_ID },
  'POST /api/posts/add-like': { post_id: NO_SUCH_ID, liked: true },
  'POST /api/posts/get-likes/:id': { data: 'fuzz' },
  'POST /api/posts/profile-info': { data: 'fuzz' },
  'POST /api/reports': { target_type: 'post', target_id: NO_SUCH_ID, reason: 'spam', note: 'fuzz' },
  'POST /api/reports/decide': {
    target_type: 'comment',
    target_id: NO_SUCH_ID,
    action: 'dismiss',
    reason: 'fuzz',
  },
  'POST /api/moderation/suspensions': { user_id: 'fuzz-nobody', days: 1, reason: 'fuzz' },
  'DELETE /api/moderation/suspensions/:user_id': {},
  // Administrators only: the fuzz's visitor and member are refused before any list or role could change.
  'POST /api/admin/access': { list: 'beta_emails', value: 'fuzz-nobody@fuzz.example' },
  'DELETE /api/admin/access': { list: 'beta_emails', value: 'fuzz-nobody@fuzz.example' },
  'POST /api/admin/roles': { email: 'fuzz-nobody@fuzz.ca.gov', role: 'contributor', grant: true },
  'POST /api/admin/agencies': {
    name: 'Fuzz Agency',
    protocol: 'oidc',
    domains: ['fuzz.example.org'],
    metadata_url: 'https://fuzz.example.org/.well-known/openid-configuration',
    client_id: 'fuzz',
    client_secret: 'fuzz',
  },
  'DELETE /api/admin/agencies/:alias': {},
  'POST /api/profiles/new-user-check': { first_name: 'Fuzz', last_name: 'Nobody', email: 'fuzz@fuzz.ca.gov' },
  'POST /api/profiles/create-profile': {
    profile_picture: '/media/pictures/not-uploaded.png',
    first_name: 'Fuzz',
    last_name: 'Nobody',
    work_email: 'fuzz@fuzz.ca.gov',
    personal_email: 'fuzz@fuzz.example',
    mobile_phone: '9165550100',
    other_phone: '9165550101',
    birthday: '1990-01-02',
    pronouns: 'They/Them',
    linkedin_url: 'https://linkedin.example/fuzz',
  },
  'POST /api/profiles/update-profile': {
    profile_id: NO_SUCH_ID,
    first_name: 'Fuzz',
    last_name: 'Nobody',
    work_email: 'fuzz@fuzz.ca.gov',
    other_phone: '9165550101',
    birthday: '1990-01-02',
    bluesky_url: 'https://bsky.example/fuzz',
    lobby_filer_id: '1234567',
  },
  'POST /api/profiles/claim/:profile_id': { profile_id: NO_SUCH_ID, user_id: 'fuzz' },
  'POST /api/profiles/claims/:claim_id': { decision: 'reject' },
  'POST /api/profiles/add-job': {
    profile_id: NO_SUCH_ID,
    title: 'Fuzzer',
    organization_id: NO_SUCH_ID,
    division_id: NO_SUCH_ID,
    street_address: '1 Fuzz Way',
    city: 'Sacramento',
    state: 'CA',
    zip_code: '95814',
    start_date: '2020-01-01',
    end_date: '2021-01-01',
    current_job: false,
  },
  'POST /api/profiles/update-job': {
    job_id: NO_SUCH_ID,
    title: 'Fuzzer',
    organization_id: NO_SUCH_ID,
    street_address: '1 Fuzz Way',
    city: 'Sacramento',
    state: 'CA',
    zip_code: '95814',
    start_date: '2020-01-01',
    current_job: true,
  },
  'DELETE /api/profiles/delete-job': { job_id: NO_SUCH_ID },
  'POST /api/profiles/organization-colleagues': { organization_id: NO_SUCH_ID },
  'POST /api/profiles/division-colleagues': { division_id: NO_SUCH_ID },
  'POST /api/profiles/bio/:profile_id': { profile_id: NO_SUCH_ID, user_bio: 'fuzz' },
  'POST /api/notifications/read': { ids: [NO_SUCH_ID] },
  'PUT /api/notifications/preferences': {
    email_digest: 'weekly',
    email_now: { mention: true, claim: true, moderation: true },
  },
  // The token is in the query; a mail provider's body is a form, or nothing.
  'POST /api/notifications/unsubscribe': {},
  'POST /api/me/delete': { password: 'Not#TheCurrent1' },
};

/** OAuth's form bodies (RFC 6749) at the realms endpoints. */
const FORM_TEMPLATES: Record<string, Record<string, string>> = {
  'POST /realms/:realm/protocol/openid-connect/token': {
    grant_type: 'refresh_token',
    refresh_token: 'not-a-token',
    client_id: 'rotunda-web',
  },
  'POST /realms/:realm/protocol/openid-connect/logout': { refresh_token: 'not-a-token' },
  'POST /auth/backchannel-logout': { logout_token: 'not-a-token' },
};

/** The multipart upload routes: their file field and the other fields the form sends. */
export const UPLOADS: Record<string, { file: string; fields: Record<string, string> }> = {
  'POST /api/profiles/upload-profile-picture': {
    file: 'profile_picture',
    fields: { image_type: 'png', profile_id: String(NO_SUCH_ID) },
  },
  'POST /api/orgs/upload-organization-logo': {
    file: 'logo',
    fields: { image_type: 'png', organization_id: String(NO_SUCH_ID) },
  },
};

/**
 * Routes that get only changes the server must refuse: the auth calls whose well-formed requests count against
 * the address's limits, and the member writes whose well-formed requests add an issue area or organization
 * every member then sees.
 */
const REFUSABLE_ONLY = new Set([
  'POST /api/issues/add-issue-area',
  'POST /api/orgs/add-organization',
  'POST /auth/check-email',
  'POST /auth/register',
  'POST /auth/login',
  'POST /auth/request-password-reset',
  'POST /auth/verify',
  'POST /auth/confirm-registration',
  'POST /auth/reset-password/:token',
  'POST /auth/update-password',
  // Started and finished sign-ins count against the address's limits.
  'POST /auth/agency/start',
  'POST /auth/agency/complete',
  // A wrong password counts as a failed login of the address; the fuzz member must never be deleted.
  'POST /api/me/delete',
]);

// ------------------------------------------------------------------------------------- the ingredients

/** Path parameters that broke routes or might: bad percent-encoding, overlong UTF-8, NUL, traversal, numbers. */
const PATH_SEGMENTS: readonly string[] = [
  '%',
  '%zz',
  '%C0%AF',
  '%00',
  'a%',
  '%%',
  '%2',
  '%E0%A4%A',
  '%ff%fe',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2f..%2f',
  '%5c..%5c',
  '%0d%0aX-Injected:%201',
  '%u0041',
  '%25',
  '%3Cscript%3E',
  '%F0%9F%92%A9',
  '%EF%BF%BF',
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  '+1',
  '00000000000000000000001',
  '99999999999999999999999999',
  '2147483648',
  String(NO_SUCH_ID),
  '%EF%BC%91',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  ';',
  '*',
  '%20',
  'x'.repeat(9000),
];

/** Values that replace one field: NUL characters, wrong types, oversize text, odd unicode and injections. */
const REFUSABLE_VALUES: readonly [string, unknown][] = [
  ['NUL inside text', 'fu\u0000zz'],
  ['NUL only', '\u0000'],
  ['NUL after valid text', 'fuzz@fuzz.ca.gov\u0000'],
  ['a number', 12345],
  ['a negative number', -1],
  ['a fraction', 1.5],
  ['a huge number', 1e308],
  ['true', true],
  ['an empty array', []],
  ['an array of text', ['a', 'b']],
  ['an object', { nested: 'x' }],
  ['null', null],
  ['70,000 characters', 'A'.repeat(70_000)],
];

const API_ONLY_VALUES: readonly [string, unknown][] = [
  ['a lone surrogate', '\uD800'],
  ['a right-to-left override', '\u202Efuzz'],
  ['astral characters', '𝕏'.repeat(120)],
  ['bad percent-encoding', '%zz%'],
  ['an SQL fragment', "' OR 1=1 --"],
  ['template expressions', '{{7*7}}#{7*7}<%= 7*7 %>'],
  ['markup', '<script>alert(1)</script>'],
  ['a 2^53 + 1 integer', 9_007_199_254_740_993n],
  ['deeply nested arrays', nested(2_000)],
  ['prototype keys', JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}')],
];

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** Whole bodies that are not what any route takes. */
const RAW_BODIES: readonly [string, string][] = [
  ['truncated JSON', '{"post_id":'],
  ['an unterminated object', '{'],
  ['a trailing comma', '{"a":1,}'],
  ['single quotes', "{'a':1}"],
  ['a bare word', 'nul'],
  ['a raw NUL', '\u0000'],
  ['a bad escape', '{"a":"\\uZZZZ"}'],
  [
    'an escaped NUL',
    '{"email":"\\u0000","post_title":"\\u0000","first_name":"\\u0000","password":"\\u0000"}',
  ],
  ['two objects', '{"a":1}{"b":2}'],
  ['a top-level array', '[{"post_id":1}]'],
  ['a top-level string', '"text"'],
  ['a top-level number', '42'],
  ['a top-level null', 'null'],
  ['whitespace only', '   '],
  ['NaN', 'NaN'],
  ['deeply nested arrays', `${'['.repeat(50_000)}${']'.repeat(50_000)}`],
  ['deeply nested objects', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`],
  ['prototype keys', '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}'],
  ['many keys', JSON.stringify(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])))],
];

const CONTENT_TYPES: readonly string[] = [
  'application/json',
  'application/json; charset=utf-16',
  'application/json; charset=klingon',
  'application/json; charset=',
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=B',
  'application/octet-stream',
  '*/*',
  'application/json, text/plain',
  'application/vnd.api+json',
];

const CONTENT_ENCODINGS: readonly string[] = [
  'gzip',
  'deflate',
  'br',
  'x-gzip',
  'compress',
  'gzip, gzip',
  'zstd',
];

const FORM_BODIES: readonly [string, string][] = [
  ['nested brackets', 'a[b][c][d][e][f]=1&a=2'],
  ['bad percent-encoding', '%zz=%&grant_type=%C0%AF'],
  ['a NUL parameter', 'grant_type=%00&refresh_token=%00'],
  ['repeated parameters', 'grant_type=refresh_token&grant_type=password&refresh_token=a&refresh_token=b'],
  ['many parameters', Array.from({ length: 1_500 }, (_, i) => `p${i}=${i}`).join('&')],
  ['prototype keys', '__proto__[admin]=1&constructor[prototype][admin]=1'],
];

const QUERIES: readonly string[] = [
  '?offset=%zz',
  '?search=%',
  '?search=%00',
  '?limit[]=1',
  '?offset=-1&limit=1e9',
  '?search=a&search=b',
  '?group[toString]=x',
  '?%zz=1',
  '?__proto__[x]=1',
  `?search=${'a'.repeat(9_000)}`,
  '?issue=%C0%AF',
  '?offset=99999999999999999999',
  '?status=%zz',
  '?status[]=open',
  '?status=open&status=closed',
  '?before=-1&limit=1e9',
];

// ------------------------------------------------------------------------------------- building requests

const encoder = new TextEncoder();
const encoded = new Map<string, Uint8Array>();
/** UTF-8 bytes; long texts (deep nesting, padding) are encoded once and shared by every request that sends them. */
function bytes(text: string): Uint8Array {
  if (text.length < 10_000) return encoder.encode(text);
  const shared = encoded.get(text) ?? encoder.encode(text);
  encoded.set(text, shared);
  return shared;
}

let heavy: { bomb: Uint8Array; large: Uint8Array } | undefined;
/** A gzip bomb (10 MB of spaces in about 10 kB) and a JSON body over the 1 MB limit, made once. */
function heavyBodies() {
  heavy ??= {
    bomb: gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x20)),
    large: encoder.encode(JSON.stringify({ padding: 'P'.repeat(1_200_000) })),
  };
  return heavy;
}

/** JSON that keeps BigInts as the exact integers they are (JSON.stringify refuses them). */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `__big${v}__` : v)).replace(
    /"__big(-?\d+)__"/g,
    '$1',
  );
}

/** A parameter value that names nothing but is well formed, for routes fuzzed on their body. */
function plainParameter(parameter: string, realm: string): string {
  if (parameter === ':realm') return realm;
  if (parameter === '{*key}') return 'pictures/none.png';
  if (parameter === ':name') return 'fuzz';
  if (parameter === ':token') return 'not-a-token';
  return String(NO_SUCH_ID);
}

interface Draft {
  route: Route;
  caller: Caller;
  malformation: string;
  parameter?: (name: string) => string;
  query?: string;
  contentType?: string;
  contentEncoding?: string;
  body?: Uint8Array;
  method?: string;
}

function build(draft: Draft, realm: string): FuzzRequest {
  const { route } = draft;
  const target =
    fillPath(route.path, draft.parameter ?? ((name) => plainParameter(name, realm))) + (draft.query ?? '');
  const headers: Record<string, string> = {};
  if (draft.contentType !== undefined) headers['content-type'] = draft.contentType;
  if (draft.contentEncoding !== undefined) headers['content-encoding'] = draft.contentEncoding;
  const method = draft.method ?? route.method;
  return {
    method,
    target,
    headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : draft.body,
    caller: draft.caller,
    route: routeKey(route),
    malformation: draft.malformation,
  };
}

/** The JSON changes a route may receive: refusable ones everywhere, the rest where no limit counts calls. */
function fieldChanges(key: string): [string, unknown][] {
  return REFUSABLE_ONLY.has(key) ? [...REFUSABLE_VALUES] : [...REFUSABLE_VALUES, ...API_ONLY_VALUES];
}

/** Multipart bodies that end early or are framed wrong, for an upload route (or any route). */
function brokenMultiparts(key: string): [string, string, string][] {
  const upload = UPLOADS[key] ?? { file: 'file', fields: {} };
  const part = `--B\r\nContent-Disposition: form-data; name="${upload.file}"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`;
  const fields = Object.entries(upload.fields)
    .map(([name, value]) => `--B\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const type = 'multipart/form-data; boundary=B';
  return [
    ['a file that ends before its closing boundary', type, `${part}PNG`],
    ['fields, then a file cut short', type, `${fields}${part}\u0089PNG\r\n\u001a\n`],
    ['a part cut inside its headers', type, '--B\r\nContent-Disposition: form-da'],
    ['a preamble only', type, 'no boundary anywhere'],
    ['a closing boundary only', type, '--B--\r\n'],
    ['a boundary the body does not use', 'multipart/form-data; boundary=Other', `${part}PNG\r\n--B--\r\n`],
    ['no boundary parameter', 'multipart/form-data', `${part}PNG\r\n--B--\r\n`],
    ['an empty boundary', 'multipart/form-data; boundary=', `${part}PNG\r\n--B--\r\n`],
    ['two files', type, `${part}PNG\r\n${part}PNG\r\n--B--\r\n`],
    [
      'a NUL in the file name and fields',
      type,
      `${fields.replace(/\r\n\r\n/g, '\r\n\r\n\u0000')}--B\r\nContent-Disposition: form-data; name="${upload.file}"; filename="\u0000../../x.png"\r\n\r\nPNG\r\n--B--\r\n`,
    ],
    ['bytes that are no image', type, `${fields}${part}not an image at all\r\n--B--\r\n`],
    [
      'a field over its size limit',
      type,
      `--B\r\nContent-Disposition: form-data; name="profile_id"\r\n\r\n${'9'.repeat(5_000)}\r\n--B--\r\n`,
    ],
    [
      'too many parts',
      type,
      `${'--B\r\nContent-Disposition: form-data; name="f"\r\n\r\nx\r\n'.repeat(40)}--B--\r\n`,
    ],
  ];
}

function callersFor(): Caller[] {
  return ['visitor', 'member'];
}

/**
 * Every route × every kind of malformation, as a visitor and as a member: path parameters, bodies (each field
 * changed in turn), content types and encodings, multipart, query strings; a few with a forged token.
 */
export function catalogRequests(routes: readonly Route[], realm: string): FuzzRequest[] {
  const requests: FuzzRequest[] = [];
  const add = (draft: Draft) => requests.push(build(draft, realm));
  for (const route of routes) {
    const key = routeKey(route);
    const template = TEMPLATES[key.replace(/\/$/, '')] ?? {};
    const hasBody = route.method !== 'GET';
    for (const caller of callersFor()) {
      for (const parameter of pathParameters(route.path)) {
        for (const segment of PATH_SEGMENTS)
          add({
            route,
            caller,
            malformation: `path parameter ${parameter} = ${JSON.stringify(segment.slice(0, 40))}`,
            parameter: (name) => (name === parameter ? segment : plainParameter(name, realm)),
            contentType: hasBody ? 'application/json' : undefined,
            body: hasBody ? bytes(toJson(template)) : undefined,
          });
      }
      if (!hasBody) {
        for (const query of QUERIES)
          add({ route, caller, malformation: `query ${query.slice(0, 40)}`, query });
        continue;
      }
      for (const [label, body] of RAW_BODIES)
        add({
          route,
          caller,
          malformation: `JSON body: ${label}`,
          contentType: 'application/json',
          body: bytes(body),
        });
      for (const field of Object.keys(template))
        for (const [label, value] of fieldChanges(key))
          add({
            route,
            caller,
            malformation: `${field} is ${label}`,
            contentType: 'application/json',
            body: bytes(toJson({ ...template, [field]: value })),
          });
      for (const encoding of CONTENT_ENCODINGS)
        add({
          route,
          caller,
          malformation: `Content-Encoding: ${encoding} over bytes that are not so encoded`,
          contentType: 'application/json',
          contentEncoding: encoding,
          body: bytes(toJson(template)),
        });
      add({
        route,
        caller,
        malformation: 'Content-Encoding: gzip over a truncated gzip stream',
        contentType: 'application/json',
        contentEncoding: 'gzip',
        body: gzipSync(toJson(template)).subarray(0, 12),
      });
      add({
        route,
        caller,
        malformation: 'a gzip bomb (10 MB of zeros in 10 kB)',
        contentType: 'application/json',
        contentEncoding: 'gzip',
        body: heavyBodies().bomb,
      });
      for (const type of CONTENT_TYPES)
        add({
          route,
          caller,
          malformation: `Content-Type: ${type}`,
          contentType: type,
          body: bytes(toJson(template)),
        });
      add({ route, caller, malformation: 'no Content-Type', body: bytes(toJson(template)) });
      add({
        route,
        caller,
        malformation: 'a JSON body of 1.2 MB',
        contentType: 'application/json',
        body: heavyBodies().large,
      });
      for (const [label, body] of FORM_BODIES)
        add({
          route,
          caller,
          malformation: `form body: ${label}`,
          contentType: 'application/x-www-form-urlencoded',
          body: bytes(body),
        });
      for (const [label, type, body] of brokenMultiparts(key))
        add({
          route,
          caller,
          malformation: `multipart: ${label}`,
          contentType: type,
          body: Buffer.from(body, 'latin1'),
        });
    }
    add({
      route,
      caller: 'forged-token',
      malformation: 'a forged access token',
      contentType: hasBody ? 'application/json' : undefined,
      body: hasBody ? bytes(toJson(template)) : undefined,
    });
    for (const method of ['PUT', 'PATCH', 'OPTIONS', 'HEAD'])
      add({ route, caller: 'visitor', malformation: `method ${method}`, method });
    const form = FORM_TEMPLATES[key];
    if (form)
      for (const [field] of Object.entries(form))
        for (const [label, value] of REFUSABLE_VALUES)
          add({
            route,
            caller: 'visitor',
            malformation: `form field ${field} is ${label}`,
            contentType: 'application/x-www-form-urlencoded',
            body: bytes(new URLSearchParams({ ...form, [field]: String(value) }).toString()),
          });
  }
  return requests;
}

// ------------------------------------------------------------------------------------- random requests

/** Random text for a path parameter: adversarial pieces, random characters and percent-escapes glued together. */
const segmentArbitrary = fc
  .array(
    fc.oneof(
      fc.constantFrom(...PATH_SEGMENTS.filter((segment) => segment.length < 100)),
      fc.string({ unit: 'binary', maxLength: 6 }).map(encodeURIComponent),
      fc.string({ maxLength: 6 }),
      fc.integer({ min: 0, max: 255 }).map((byte) => `%${byte.toString(16).padStart(2, '0')}`),
      fc.constant('%'),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((pieces) => pieces.join('').replace(/[#?]/g, '%23'));

/** A random JSON change of the route's template: fields changed, added or removed. */
function jsonBodyArbitrary(key: string): fc.Arbitrary<[string, Uint8Array]> {
  const template = TEMPLATES[key] ?? {};
  const fields = Object.keys(template);
  const changes = fieldChanges(key);
  const change = fc.tuple(
    fields.length > 0 ? fc.constantFrom(...fields) : fc.constant('unexpected'),
    fc.constantFrom(...changes),
  );
  const safe = !REFUSABLE_ONLY.has(key);
  return fc.oneof(
    fc
      .array(change, { minLength: 1, maxLength: 3 })
      .map((picked): [string, Uint8Array] => [
        picked.map(([field, [label]]) => `${field} is ${label}`).join(', '),
        bytes(
          toJson({ ...template, ...Object.fromEntries(picked.map(([field, [, value]]) => [field, value])) }),
        ),
      ]),
    fc
      .constantFrom(...RAW_BODIES)
      .map(([label, body]): [string, Uint8Array] => [`JSON body: ${label}`, bytes(body)]),
    ...(safe
      ? [
          fc
            .jsonValue({ maxDepth: 4 })
            .map((value): [string, Uint8Array] => [
              `random JSON ${toJson(value).slice(0, 60)}`,
              bytes(toJson(value)),
            ]),
          fc
            .dictionary(fc.constantFrom(...fields, 'extra', '__proto__'), fc.jsonValue({ maxDepth: 2 }))
            .map((value): [string, Uint8Array] => [
              `random fields ${toJson(value).slice(0, 60)}`,
              bytes(toJson(value)),
            ]),
          fc
            .string({ unit: 'binary', maxLength: 200 })
            .map((text): [string, Uint8Array] => [
              `random text ${JSON.stringify(text.slice(0, 30))}`,
              bytes(text),
            ]),
          fc
            .uint8Array({ maxLength: 300 })
            .map((raw): [string, Uint8Array] => [`random bytes (${raw.length})`, raw]),
        ]
      : []),
  );
}

/**
 * One random malformed request: a route, a caller, and a mix of changes to its path, query, body, content type
 * and encoding. `realm` fills the realms routes' realm.
 */
export function requestArbitrary(routes: readonly Route[], realm: string): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...routes).chain((route) => {
    const key = routeKey(route).replace(/\/$/, '');
    const hasBody = route.method !== 'GET';
    const parameters = pathParameters(route.path);
    const upload = UPLOADS[key];
    const body: fc.Arbitrary<[string, Uint8Array, string]> = upload
      ? fc
          .constantFrom(...brokenMultiparts(key))
          .map(([label, type, text]) => [`multipart: ${label}`, Buffer.from(text, 'latin1'), type])
      : FORM_TEMPLATES[key]
        ? fc
            .constantFrom(...FORM_BODIES)
            .map(([label, text]) => [`form: ${label}`, bytes(text), 'application/x-www-form-urlencoded'])
        : jsonBodyArbitrary(key).map(([label, raw]) => [label, raw, 'application/json']);
    return fc
      .record({
        caller: fc.constantFrom<Caller>('visitor', 'member', 'member', 'forged-token'),
        segments: fc.array(fc.oneof(segmentArbitrary, fc.constant(null)), {
          minLength: parameters.length,
          maxLength: parameters.length,
        }),
        query: fc.option(fc.constantFrom(...QUERIES), { freq: 4 }),
        body,
        contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { freq: 3 }),
        contentEncoding: fc.option(fc.constantFrom(...CONTENT_ENCODINGS), { freq: 4 }),
      })
      .map(({ caller, segments, query, body: [bodyLabel, raw, type], contentType, contentEncoding }) => {
        const labels: string[] = [];
        const values = new Map(parameters.map((name, i) => [name, segments[i]]));
        for (const [name, value] of values)
          if (value) labels.push(`${name} = ${JSON.stringify(value.slice(0, 40))}`);
        if (query) labels.push(`query ${query.slice(0, 40)}`);
        if (hasBody) labels.push(bodyLabel);
        if (hasBody && contentType) labels.push(`Content-Type: ${contentType}`);
        if (hasBody && contentEncoding) labels.push(`Content-Encoding: ${contentEncoding}`);
        return build(
          {
            route,
            caller,
            malformation: labels.join('; ') || 'nothing changed',
            parameter: (name) => values.get(name) ?? plainParameter(name, realm),
            query: query ?? undefined,
            contentType: hasBody ? (contentType ?? type) : undefined,
            contentEncoding: hasBody ? (contentEncoding ?? undefined) : undefined,
            body: hasBody ? raw : undefined,
          },
          realm,
        );
      });
  });
}

// ------------------------------------------------------------------------------------- sending

export interface Answer {
  status: number;
  /** The start of the answer's body, or the network error. */
  text: string;
  ms: number;
}

/** How long one request may take: a hang is as much a finding as a 500. */
const REQUEST_TIMEOUT_MS = 15_000;

/** Sends one request with Node's fetch; status 0 is a network error (refused, reset, timed out). */
export async function send(
  baseUrl: string,
  request: FuzzRequest,
  token: string | undefined,
): Promise<Answer> {
  const headers = { ...request.headers };
  if (request.caller === 'member' && token) headers['x-auth-token'] = token;
  if (request.caller === 'forged-token') headers.authorization = `Bearer ${FORGED_TOKEN}`;
  const started = Date.now();
  try {
    const response = await fetch(`${baseUrl}${request.target}`, {
      method: request.method,
      headers,
      body: request.body as Uint8Array<ArrayBuffer> | undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    // A live stream (the unread count) never ends by itself: its first event is the answer.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      const reader = response.body?.getReader();
      const first = await reader?.read();
      await reader?.cancel();
      const text = new TextDecoder().decode(first?.value);
      return { status: response.status, text: text.slice(0, 300), ms: Date.now() - started };
    }
    const text = request.method === 'HEAD' ? '' : await response.text();
    return { status: response.status, text: text.slice(0, 300), ms: Date.now() - started };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      status: 0,
      text: `${(error as Error).message}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}`,
      ms: Date.now() - started,
    };
  }
}

/** A JWT-shaped token signed by nobody: header {"alg":"none"} and a contributor's claims. */
const FORGED_TOKEN = [
  Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url'),
  Buffer.from('{"sub":"x","realm_access":{"roles":["contributor"]},"exp":9999999999}').toString('base64url'),
  '',
].join('.');

/** The request as a line to read and replay (curl), body shortened. */
export function curlOf(request: FuzzRequest, baseUrl: string): string {
  const body = request.body ? Buffer.from(request.body).toString('latin1') : undefined;
  const shown =
    body === undefined
      ? ''
      : ` --data-binary ${JSON.stringify(body.length > 300 ? `${body.slice(0, 300)}…(${body.length} bytes)` : body)}`;
  const headers = Object.entries(request.headers)
    .map(([name, value]) => ` -H ${JSON.stringify(`${name}: ${value}`)}`)
    .join('');
  const who =
    request.caller === 'member'
      ? ' -H "x-auth-token: <member>"'
      : request.caller === 'forged-token'
        ? ' -H "authorization: Bearer <forged>"'
        : '';
  const target = request.target.length > 200 ? `${request.target.slice(0, 200)}…` : request.target;
  return `curl -X ${request.method} ${JSON.stringify(`${baseUrl}${target}`)}${who}${headers}${shown}`;
}
