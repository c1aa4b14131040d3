// Test doubles for the identity side: RS256 signing keys, Keycloak-shaped access tokens minted with jose, a
// recording fake AuthService (service-kit's) with canned answers (the access lists it keeps as they are
// changed), and a gateway started against it (watching the fake's ended sessions).
import type { AddressInfo } from 'node:net';
import {
  type AccessLists,
  type AdminLogEntry,
  type Agency,
  AuthServiceService,
  type LoginResponse,
  type TokenSet,
} from '@rotunda/protos/auth';
import { createLogger, type Logger, loadConfig } from '@rotunda/service-kit';
import {
  type FakeAnswer,
  type RecordingFake,
  startRecordingFake,
  testCallers,
} from '@rotunda/service-kit/testing';
import type { Express } from 'express';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import { createApp } from '../../src/app.ts';
import { endedSessionsFromAuth, watchEndedSessions } from '../../src/auth/ended-sessions.ts';
import type { JwksCacheOptions } from '../../src/auth/jwks.ts';
import { moderationSnapshotFromPost, watchModerationSnapshot } from '../../src/auth/moderation-snapshot.ts';
import { gatewayConfigSchema } from '../../src/config.ts';
import { createServiceClients } from '../../src/grpc/clients.ts';
import { type UnreadStreamsOptions, unreadStreams } from '../../src/http/unread-streams.ts';

export const logger = createLogger('test', 'silent');
export const ISSUER = 'http://localhost:8080/realms/rotunda';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

export const MEMBER = {
  sub: '4b1f2a52-7c1e-4d8a-9a43-1d2f6b1f0a01',
  email: 'member@demo.ca.gov',
  given_name: 'Maya',
  family_name: 'Member',
};

/** An access token with Keycloak's claim shape; `claims` overrides or adds claims (undefined removes). */
export async function accessToken(
  key: SigningKey,
  {
    roles = [],
    claims = {},
    expiresIn = 300,
    kid = key.kid,
  }: { roles?: string[]; claims?: Record<string, unknown>; expiresIn?: number; kid?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload: JWTPayload = {
    iss: ISSUER,
    sub: MEMBER.sub,
    typ: 'Bearer',
    azp: 'rotunda-web',
    email: MEMBER.email,
    given_name: MEMBER.given_name,
    family_name: MEMBER.family_name,
    email_verified: true,
    sid: TOKENS.session_state,
    realm_access: { roles: ['default-roles-rotunda', ...roles] },
    iat: now,
    exp: now + expiresIn,
    ...claims,
  };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid }).sign(key.privateKey);
}

/** The same token with its payload edited but the original signature kept. */
export function tamper(token: string, edit: (payload: Record<string, unknown>) => void): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  edit(claims);
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

export const TOKENS: TokenSet = {
  access_token: 'access.jwt.value',
  expires_in: 300,
  refresh_token: 'refresh.jwt.value',
  refresh_expires_in: 1800,
  token_type: 'Bearer',
  session_state: 'session-1',
  scope: 'email profile',
};

export const LOGIN: LoginResponse = {
  user: {
    user_id: MEMBER.sub,
    first_name: 'Maya',
    last_name: 'Member',
    email: MEMBER.email,
    contributor: false,
    email_confirmed: true,
    admin: false,
  },
  tokens: TOKENS,
};

const accessLists = (): AccessLists => ({
  domains: ['agency.ca.gov'],
  emails: ['staff@example.org'],
  beta_emails: ['beta@example.com'],
});

/** The admin log ListAdminLog answers: a change from the screen, then one from `npm run admin`. */
export const ADMIN_LOG: AdminLogEntry[] = [
  {
    id: 12,
    at: new Date('2026-11-30T17:05:00Z'),
    actor_user_id: 'a0d1e2f3-0000-4000-8000-00000000ad31',
    actor_email: 'admin@demo.ca.gov',
    action: 'grant',
    subject: 'contributor',
    value: 'member@demo.ca.gov',
  },
  {
    id: 11,
    at: new Date('2026-11-29T09:00:00Z'),
    actor_user_id: '',
    actor_email: 'npm run admin',
    action: 'add',
    subject: 'domains',
    value: 'agency.ca.gov',
  },
];

/** The agency ListAgencies answers, and FindAgency for an email at dmv.ca.gov. */
export const AGENCY: Agency = {
  alias: 'department-of-motor-vehicles',
  name: 'Department of Motor Vehicles',
  protocol: 'oidc',
  domains: ['dmv.ca.gov'],
  metadata_url: 'https://login.dmv.ca.gov/.well-known/openid-configuration',
  client_id: 'rotunda',
  redirect_uri: 'http://localhost:8081/realms/rotunda/broker/department-of-motor-vehicles/endpoint',
  logout_url: 'http://localhost:8081/realms/rotunda/protocol/openid-connect/logout/backchannel-logout',
  sp_metadata_url: '',
  created_at: new Date('2026-12-01T10:00:00Z'),
};

/** Where StartAgencySignIn sends the browser: Keycloak's authorization endpoint with the agency's hint. */
export const AGENCY_SIGN_IN_URL =
  'http://localhost:8081/realms/rotunda/protocol/openid-connect/auth?client_id=rotunda-auth&kc_idp_hint=department-of-motor-vehicles';

export interface FakeAuth extends RecordingFake {
  /** The session ids ListEndedSessions answers (its polls are not recorded); push one to end a session. */
  endedSessions: string[];
  /** The access lists GetAccessLists answers and ChangeAccessList changes; `reset` restores them. */
  access: AccessLists;
  /** The keys GetJwks hands out; replace to rotate. */
  jwks: { keys: JWK[] };
}

export async function startFakeAuth(keys: SigningKey[]): Promise<FakeAuth> {
  const jwks = { keys: keys.map((key) => key.jwk) };
  const defaults: Record<string, FakeAnswer> = {
    createCaptchaChallenge: async () => ({
      challenge_json: JSON.stringify({
        algorithm: 'SHA-256',
        challenge: 'c0ffee',
        maxnumber: 100000,
        salt: 'salt?expires=1',
        signature: 'sig',
      }),
    }),
    verifyCaptcha: async () => ({ success: true }),
    checkEmail: async () => ({ eligible: true }),
    register: async () => ({
      message: 'Registration successful! Please check your email to confirm your account.',
    }),
    confirmRegistration: async () => ({ message: 'Your email is confirmed!' }),
    login: async () => LOGIN,
    refreshTokens: async () => ({ ...TOKENS, access_token: 'access.jwt.refreshed' }),
    logout: async () => ({}),
    requestPasswordReset: async () => ({ message: 'Password reset link has been sent to your email' }),
    resetPassword: async () => ({ message: 'Password has been reset' }),
    updatePassword: async () => ({ message: 'Password has been updated' }),
    getJwks: async () => ({ jwks_json: JSON.stringify(fake.jwks) }),
    listEndedSessions: async () => ({
      session_ids: [...fake.endedSessions],
      cursor: 'after-all',
      retain_seconds: 360,
    }),
    listEmailDomains: async () => ({ domains: ['lobbyfirm.example.com', 'association.example.org'] }),
    listBetaEmails: async () => ({ emails: ['beta@example.com'] }),
    listApprovedEmails: async () => ({ emails: ['staff@example.org'] }),
    consumeQuota: async () => ({ retry_after_seconds: 0 }),
    exportMine: async () => ({
      json: JSON.stringify({ account: { user_id: MEMBER.sub, email: MEMBER.email, first_name: 'Maya' } }),
    }),
    deleteAccount: async () => ({}),
    getAccessLists: async () => fake.access,
    changeAccessList: async (request) => {
      const list = fake.access[request.list as keyof AccessLists];
      const value = request.value as string;
      if (request.add && !list.includes(value)) list.push(value);
      if (!request.add && list.includes(value)) list.splice(list.indexOf(value), 1);
      return fake.access;
    },
    setRole: async () => ({}),
    listAdminLog: async () => ({ entries: ADMIN_LOG }),
    findAgency: async (request) => ({
      agency: String(request.email).endsWith('@dmv.ca.gov')
        ? { alias: AGENCY.alias, name: AGENCY.name }
        : undefined,
    }),
    startAgencySignIn: async () => ({ url: AGENCY_SIGN_IN_URL }),
    completeAgencySignIn: async () => ({ ...LOGIN, first_sign_in: false }),
    backchannelLogout: async () => ({}),
    listAgencies: async () => ({ available: true, agencies: [AGENCY] }),
    addAgency: async () => AGENCY,
    removeAgency: async () => ({}),
  };
  const recording = await startRecordingFake({
    definition: AuthServiceService,
    defaults,
    unrecorded: ['listEndedSessions'],
  });
  const fake: FakeAuth = {
    ...recording,
    endedSessions: [],
    access: accessLists(),
    jwks,
    reset: () => {
      recording.reset();
      fake.endedSessions.length = 0;
      fake.access = accessLists();
    },
  };
  return fake;
}

export interface RunningGateway {
  base: string;
  /** The Express app it serves: tests read its registered routes. */
  app: Express;
  close: () => Promise<void>;
}

/** A gateway on a free port, talking to `authAddress`; other services point nowhere unless given. */
export async function startGateway(
  env: Record<string, string>,
  jwksCache?: JwksCacheOptions,
  log: Logger = logger,
  streamOptions: Pick<UnreadStreamsOptions, 'keepAliveMs'> = {},
): Promise<RunningGateway> {
  const config = loadConfig(gatewayConfigSchema, {
    ...testCallers.env,
    SERVE_WEB: 'false',
    PUBLIC_CACHE_SECONDS: '0',
    DIRECTORY_CACHE_SECONDS: '0',
    ENDED_SESSIONS_POLL_MS: '50',
    PROFILE_SERVICE_ADDR: '127.0.0.1:1',
    ORG_SERVICE_ADDR: '127.0.0.1:1',
    POST_SERVICE_ADDR: '127.0.0.1:1',
    NEWS_SERVICE_ADDR: '127.0.0.1:1',
    NOTIFICATION_SERVICE_ADDR: '127.0.0.1:1',
    ...env,
  });
  const clients = createServiceClients(config);
  const endedSessions = watchEndedSessions({
    load: endedSessionsFromAuth(clients),
    intervalMs: config.ENDED_SESSIONS_POLL_MS,
    logger,
  });
  const moderation = watchModerationSnapshot({
    load: moderationSnapshotFromPost(clients),
    intervalMs: config.ENDED_SESSIONS_POLL_MS,
    logger,
  });
  const streams = unreadStreams({
    clients,
    logger: log,
    atOnce: config.NOTIFICATION_STREAMS_AT_ONCE,
    endedSessions,
    ...streamOptions,
  });
  const app = createApp({
    config,
    clients,
    services: async () => ({}),
    logger: log,
    jwksCache,
    endedSessions,
    moderation,
    streams,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    app,
    close: async () => {
      streams.close();
      endedSessions.close();
      moderation.close();
      clients.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** JSON POST helper: answers status, headers and parsed body (undefined for an empty body). */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
