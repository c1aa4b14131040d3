// Services verify who is calling. The gateway, having verified a member's access token, names the member in the
// call's metadata; its channels then replace those plain entries with a short-lived caller token it signs
// (Ed25519, a compact JWS), and every service's server checks that token before any handler runs. Plain
// `x-caller-*` entries from the wire are dropped, so a process that merely reaches a service's port cannot act
// as a member or a contributor: it would need the gateway's private key. A token's audience is the one service
// whose method is called (aud "org" for /rotunda.org.v1.OrgService/…), so a token seen by one service cannot be
// replayed to another. A service calling another names itself the same way, signing with a key of its own that
// the service it calls trusts for that name only: it can say who it is, never which member it acts for (ADR 0039).
// A member's token also carries the suspension the gateway knows of (`susp`), which each service's guard enforces
// (ADR 0041).
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';
import {
  CALLER_METADATA,
  CALLER_SERVICE_METADATA,
  type Caller,
  callerFromMetadata,
  type Suspension,
} from '../caller.ts';

/** The metadata entry carrying the signed caller. */
export const CALLER_TOKEN_METADATA = 'x-caller-token';

const GATEWAY_ISSUER = 'rotunda-gateway';
/**
 * Which services each service calls as itself (its grpc clients): npm start, compose and Kubernetes give each a
 * key pair, and each service called the public keys of its callers; the deploy checks hold them to this list.
 */
export const SERVICE_CALLS = {
  auth: [],
  profile: ['org', 'auth'],
  org: [],
  post: ['profile', 'org'],
  news: [],
  notification: ['profile', 'auth'],
} as const satisfies Record<string, readonly string[]>;

/** The services that call `service` as themselves. */
export const callersOf = (service: string): string[] =>
  Object.entries(SERVICE_CALLS)
    .filter(([, called]) => (called as readonly string[]).includes(service))
    .map(([caller]) => caller);

/** The issuer and subject of a service's own calls: `service:profile`. */
const SERVICE_PREFIX = 'service:';
/** The role a service's own calls carry. */
export const SERVICE_ROLE = 'service';
const HEADER = Buffer.from(JSON.stringify({ alg: 'EdDSA', typ: 'JWT' })).toString('base64url');
/** Long enough to outlive any call's deadline, short enough that a captured token is soon worthless. */
const LIFETIME_SECONDS = 60;
/** A token is reused while it has at least this long to live. */
const RENEW_BEFORE_SECONDS = 30;
const CLOCK_TOLERANCE_SECONDS = 5;
/** Tokens (and signed callers) remembered; a tab sends the same caller on every call. */
const REMEMBERED = 5000;

export interface CallerKeys {
  /** PKCS#8 DER, base64: the gateway's CALLER_TOKEN_PRIVATE_KEY. */
  privateKey: string;
  /** SPKI DER, base64: every service's CALLER_TOKEN_PUBLIC_KEY. */
  publicKey: string;
}

/** A fresh key pair, as the apphost makes one per start and an operator makes one per deployment. */
export function generateCallerKeys(): CallerKeys {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  };
}

/** An Ed25519 private key from its base64 PKCS#8 DER; throws with a reason otherwise. */
export function callerPrivateKeyOf(base64: string): KeyObject {
  const key = createPrivateKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`not an Ed25519 key (${key.asymmetricKeyType})`);
  return key;
}

/** An Ed25519 public key from its base64 SPKI DER; throws with a reason otherwise. */
export function callerPublicKeyOf(base64: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`not an Ed25519 key (${key.asymmetricKeyType})`);
  return key;
}

/** Remembers at most REMEMBERED entries; the oldest makes room (Map keeps insertion order). */
function remember<Value>(map: Map<string, Value>, key: string, value: Value) {
  if (map.size >= REMEMBERED) map.delete(map.keys().next().value as string);
  map.set(key, value);
}

/**
 * The audience of a call: the short name of the service its method belongs to (`/rotunda.org.v1.OrgService/X`
 * → `org`), the full service name for any other (`grpc.health.v1.Health`).
 */
export function audienceOf(methodPath: string): string {
  const service = methodPath.split('/')[1] ?? '';
  return /^rotunda\.([a-z]+)\.v\d+\./.exec(service)?.[1] ?? service;
}

/** Signs claims as a compact JWS, reusing a token for the same claims until it is due for renewal. */
function tokenSigner(privateKey: KeyObject, now: () => number) {
  const signed = new Map<string, { token: string; renewAt: number }>();
  return (key: string, claims: Record<string, unknown>): string => {
    const known = signed.get(key);
    if (known && now() < known.renewAt) return known.token;
    const iat = Math.floor(now() / 1000);
    const payload = Buffer.from(JSON.stringify({ ...claims, iat, exp: iat + LIFETIME_SECONDS })).toString(
      'base64url',
    );
    const input = `${HEADER}.${payload}`;
    const token = `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
    signed.delete(key);
    remember(signed, key, { token, renewAt: (iat + LIFETIME_SECONDS - RENEW_BEFORE_SECONDS) * 1000 });
    return token;
  };
}

export interface CallerSigner {
  /** A token naming the member to the service `audience`. */
  tokenFor(caller: Caller, audience: string): string;
}

/** The gateway's signer: tokens naming the member a call is made for. */
export function createCallerSigner(privateKey: KeyObject, now = () => Date.now()): CallerSigner {
  const signed = tokenSigner(privateKey, now);
  return {
    tokenFor(caller, audience) {
      const susp = caller.suspension && {
        until: Math.floor(caller.suspension.until.getTime() / 1000),
        reason: caller.suspension.reason,
      };
      // The suspension is part of the key: a new or lifted one is signed at once, not when the old token renews.
      const key = `${audience}\n${caller.userId}\n${caller.email}\n${caller.roles.join(',')}\n${susp ? `${susp.until}\n${susp.reason}` : ''}`;
      return signed(key, {
        iss: GATEWAY_ISSUER,
        aud: audience,
        sub: caller.userId,
        email: caller.email,
        roles: caller.roles,
        ...(susp ? { susp } : {}),
      });
    },
  };
}

export interface ServiceSigner {
  /** The service signing. */
  readonly service: string;
  /** A token naming this service to the service `audience`. */
  tokenFor(audience: string): string;
}

/** A service's signer: tokens naming the service itself as the caller of another. */
export function createServiceSigner(
  service: string,
  privateKey: KeyObject,
  now = () => Date.now(),
): ServiceSigner {
  const signed = tokenSigner(privateKey, now);
  const subject = `${SERVICE_PREFIX}${service}`;
  return {
    service,
    tokenFor: (audience) =>
      signed(audience, { iss: subject, aud: audience, sub: subject, email: '', roles: [SERVICE_ROLE] }),
  };
}

/** Who a verified token names: a member the gateway vouches for, or a service speaking for itself. */
export type VerifiedCaller =
  | { member: Caller; service?: undefined }
  | { service: string; member?: undefined };

export interface CallerVerifier {
  /**
   * Who a token names, or undefined when it is forged, expired, or meant for another service than `audience`
   * (the service whose method is called).
   */
  verify(token: string, audience: string): VerifiedCaller | undefined;
}

export interface CallerVerifierOptions {
  /** Each service's public keys, by name, that may call as that service (several while a key is rolled). */
  services?: Readonly<Record<string, readonly KeyObject[]>>;
  now?: () => number;
}

/**
 * Verifies the gateway's tokens against any of `gatewayKeys` (several while a new key is rolled out), and a
 * service's own tokens against the keys trusted for that service's name only.
 */
export function createCallerVerifier(
  gatewayKeys: readonly KeyObject[],
  { services = {}, now = () => Date.now() }: CallerVerifierOptions = {},
): CallerVerifier {
  const verified = new Map<string, { caller: VerifiedCaller; audience: string; until: number }>();
  const check = (token: string) => {
    const [header, payload, signature, ...rest] = token.split('.');
    if (header !== HEADER || !payload || !signature || rest.length > 0) return undefined;
    let claims: Record<string, unknown>;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    const { iss, aud, sub, email, roles, exp, susp } = claims;
    if (typeof iss !== 'string' || typeof aud !== 'string' || typeof sub !== 'string' || !sub)
      return undefined;
    if (typeof exp !== 'number' || typeof email !== 'string' || !Array.isArray(roles)) return undefined;
    if (!roles.every((role) => typeof role === 'string')) return undefined;
    const suspension = suspensionOf(susp);
    if (suspension === null) return undefined;
    const service = iss.startsWith(SERVICE_PREFIX) ? iss.slice(SERVICE_PREFIX.length) : undefined;
    // A service's key vouches for that service alone; only the gateway's names members.
    const keys = service === undefined ? (iss === GATEWAY_ISSUER ? gatewayKeys : []) : services[service];
    if (service !== undefined && (sub !== iss || !Object.hasOwn(services, service))) return undefined;
    const input = Buffer.from(`${header}.${payload}`);
    const bytes = Buffer.from(signature, 'base64url');
    if (!keys?.some((key) => verify(null, input, key, bytes))) return undefined;
    const caller: VerifiedCaller =
      service === undefined
        ? { member: { userId: sub, email, roles, ...(suspension ? { suspension } : {}) } }
        : { service };
    return { caller, audience: aud, until: (exp + CLOCK_TOLERANCE_SECONDS) * 1000 };
  };
  return {
    verify(token, audience) {
      const known = verified.get(token) ?? check(token);
      if (!known || now() >= known.until) {
        verified.delete(token);
        return undefined;
      }
      if (!verified.has(token)) remember(verified, token, known);
      return known.audience === audience ? known.caller : undefined;
    },
  };
}

/** A token's `susp` claim: absent (undefined), a suspension, or malformed (null: the token is refused). */
function suspensionOf(claim: unknown): Suspension | undefined | null {
  if (claim === undefined) return undefined;
  if (typeof claim !== 'object' || claim === null) return null;
  const { until, reason } = claim as Record<string, unknown>;
  if (typeof until !== 'number' || !Number.isFinite(until) || typeof reason !== 'string') return null;
  return { until: new Date(until * 1000), reason };
}

export const PLAIN_CALLER_ENTRIES = [...Object.values(CALLER_METADATA), CALLER_SERVICE_METADATA];

/**
 * The gateway's channels: the caller `setCallerMetadata` named leaves the process only as a signed token, for the
 * one service whose method is called.
 */
export function callerSigningInterceptor(signer: CallerSigner): Interceptor {
  return (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        const caller = callerFromMetadata(metadata);
        for (const entry of PLAIN_CALLER_ENTRIES) metadata.remove(entry);
        metadata.remove(CALLER_TOKEN_METADATA);
        if (caller)
          metadata.set(
            CALLER_TOKEN_METADATA,
            signer.tokenFor(caller, audienceOf(options.method_definition.path)),
          );
        next(metadata, listener);
      },
    });
}

/** The signer a service's process names itself with on every call it makes (runService sets it). */
let processIdentity: ServiceSigner | undefined;

export function useServiceIdentity(signer: ServiceSigner | undefined): void {
  processIdentity = signer;
}

/**
 * A service's channels: every call it makes names it, signed, to the service called, unless the call already
 * carries a token (a gateway's member). Without `signer`, the process's identity at the time of the call.
 */
export function serviceCallerInterceptor(signer?: ServiceSigner): Interceptor {
  return (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        for (const entry of PLAIN_CALLER_ENTRIES) metadata.remove(entry);
        const identity = signer ?? processIdentity;
        if (identity && metadata.get(CALLER_TOKEN_METADATA).length === 0)
          metadata.set(CALLER_TOKEN_METADATA, identity.tokenFor(audienceOf(options.method_definition.path)));
        next(metadata, listener);
      },
    });
}
