// Services verify who is calling. The gateway, having verified a member's access token, names the member in the
// call's metadata; its channels then replace those plain entries with a short-lived caller token it signs
// (Ed25519, a compact JWS), and every service's server checks that token before any handler runs. Plain
// `x-caller-*` entries from the wire are dropped, so a process that merely reaches a service's port cannot act
// as a member or a contributor: it would need the gateway's private key.
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';
import { CALLER_METADATA, type Caller, callerFromMetadata } from '../caller.ts';

/** The metadata entry carrying the signed caller. */
export const CALLER_TOKEN_METADATA = 'x-caller-token';

const ISSUER = 'rotunda-gateway';
const AUDIENCE = 'rotunda-services';
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

export interface CallerSigner {
  tokenFor(caller: Caller): string;
}

export function createCallerSigner(privateKey: KeyObject, now = () => Date.now()): CallerSigner {
  const signed = new Map<string, { token: string; renewAt: number }>();
  return {
    tokenFor(caller) {
      const key = `${caller.userId}\n${caller.email}\n${caller.roles.join(',')}`;
      const known = signed.get(key);
      if (known && now() < known.renewAt) return known.token;
      const iat = Math.floor(now() / 1000);
      const payload = Buffer.from(
        JSON.stringify({
          iss: ISSUER,
          aud: AUDIENCE,
          sub: caller.userId,
          email: caller.email,
          roles: caller.roles,
          iat,
          exp: iat + LIFETIME_SECONDS,
        }),
      ).toString('base64url');
      const input = `${HEADER}.${payload}`;
      const token = `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
      signed.delete(key);
      remember(signed, key, { token, renewAt: (iat + LIFETIME_SECONDS - RENEW_BEFORE_SECONDS) * 1000 });
      return token;
    },
  };
}

export interface CallerVerifier {
  /** The caller a token names, or undefined when it is forged, expired or not for Rotunda's services. */
  verify(token: string): Caller | undefined;
}

/** Verifies against any of the given keys (several while a new key is rolled out). */
export function createCallerVerifier(
  publicKeys: readonly KeyObject[],
  now = () => Date.now(),
): CallerVerifier {
  const verified = new Map<string, { caller: Caller; until: number }>();
  const check = (token: string): { caller: Caller; until: number } | undefined => {
    const [header, payload, signature, ...rest] = token.split('.');
    if (header !== HEADER || !payload || !signature || rest.length > 0) return undefined;
    const input = Buffer.from(`${header}.${payload}`);
    const bytes = Buffer.from(signature, 'base64url');
    if (!publicKeys.some((key) => verify(null, input, key, bytes))) return undefined;
    let claims: Record<string, unknown>;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    const { iss, aud, sub, email, roles, exp } = claims;
    if (iss !== ISSUER || aud !== AUDIENCE || typeof sub !== 'string' || !sub) return undefined;
    if (typeof exp !== 'number' || typeof email !== 'string' || !Array.isArray(roles)) return undefined;
    if (!roles.every((role) => typeof role === 'string')) return undefined;
    return { caller: { userId: sub, email, roles }, until: (exp + CLOCK_TOLERANCE_SECONDS) * 1000 };
  };
  return {
    verify(token) {
      const known = verified.get(token) ?? check(token);
      if (!known || now() >= known.until) {
        verified.delete(token);
        return undefined;
      }
      if (!verified.has(token)) remember(verified, token, known);
      return known.caller;
    },
  };
}

export const PLAIN_CALLER_ENTRIES = Object.values(CALLER_METADATA);

/**
 * The gateway's channels: the caller `setCallerMetadata` named leaves the process only as a signed token.
 */
export function callerSigningInterceptor(signer: CallerSigner): Interceptor {
  return (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        const caller = callerFromMetadata(metadata);
        for (const entry of PLAIN_CALLER_ENTRIES) metadata.remove(entry);
        metadata.remove(CALLER_TOKEN_METADATA);
        if (caller) metadata.set(CALLER_TOKEN_METADATA, signer.tokenFor(caller));
        next(metadata, listener);
      },
    });
}
