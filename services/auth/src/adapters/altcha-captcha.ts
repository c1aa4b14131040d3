// The Captcha port on ALTCHA proof-of-work: self-hosted challenges for the widget, checked and spent once here.
// It uses altcha-lib's v1 scheme (SHA-256, expiry embedded in the signed salt) because the altcha 3 widget
// in the shell still solves v1 challenges and sends back the base64 payload this module reads.
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import type { Payload } from 'altcha-lib/v1/types';
import type { Captcha } from '../domain/ports.ts';

export interface AltchaCaptchaOptions {
  /** Secret that signs challenges; anyone holding it can mint solved payloads. */
  hmacKey: string;
  /**
   * Upper bound of the secret number the browser searches for. The default costs a browser well under a
   * second on average: register and reset are rate-limited too, so the captcha only has to price bulk abuse.
   */
  maxNumber?: number;
  /** How long a challenge may be solved and submitted; default 10 minutes. */
  expiresInSeconds?: number;
  /**
   * Records a solved challenge as used until it expires; answers true the first time and false when the
   * id was already spent (a replay). Its storage errors propagate: they are faults, not bad payloads.
   */
  markSpent: (id: string, expiresAt: Date) => Promise<boolean>;
}

const DEFAULT_MAX_NUMBER = 100_000;
const DEFAULT_EXPIRES_IN_SECONDS = 10 * 60;
// We only ever issue SHA-256 challenges; pinning it stops a client from choosing the algorithm.
const ALGORITHM = 'SHA-256';
// A real payload is a few hundred characters; anything far larger is not worth decoding.
const MAX_PAYLOAD_CHARS = 4096;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const HEX = /^[0-9a-f]+$/;

interface CheckedPayload {
  payload: Payload;
  expiresAt: Date;
}

export function createAltchaCaptcha(options: AltchaCaptchaOptions): Captcha {
  const { hmacKey, markSpent } = options;
  const maxNumber = options.maxNumber ?? DEFAULT_MAX_NUMBER;
  const expiresInSeconds = options.expiresInSeconds ?? DEFAULT_EXPIRES_IN_SECONDS;
  if (!hmacKey) throw new Error('ALTCHA needs a non-empty HMAC key');
  if (!Number.isSafeInteger(maxNumber) || maxNumber < 1) {
    throw new Error(`ALTCHA maxNumber must be a positive integer, got ${maxNumber}`);
  }
  if (!Number.isFinite(expiresInSeconds) || expiresInSeconds <= 0) {
    throw new Error(`ALTCHA expiresInSeconds must be positive, got ${expiresInSeconds}`);
  }

  async function check(raw: string): Promise<CheckedPayload | null> {
    const payload = decodePayload(raw);
    if (!payload) return null;
    // altcha-lib treats a salt without `expires` as never expiring; every challenge we sign carries one,
    // so a payload without it is not ours and is refused rather than accepted forever.
    const expiresAt = expiryOf(payload);
    if (!expiresAt || expiresAt.getTime() <= Date.now()) return null;
    try {
      // Recomputes the challenge from salt + number and the HMAC over it, and checks expiry again.
      const valid = await verifySolution(payload, hmacKey, true);
      return valid ? { payload, expiresAt } : null;
    } catch {
      return null;
    }
  }

  return {
    async createChallenge() {
      const challenge = await createChallenge({
        algorithm: ALGORITHM,
        hmacKey,
        maxNumber,
        expires: new Date(Date.now() + expiresInSeconds * 1000),
      });
      return { ...challenge };
    },

    async verify(payload) {
      return (await check(payload)) !== null;
    },

    async spend(payload) {
      const checked = await check(payload);
      if (!checked) return false;
      // The signature is an HMAC over hash(salt + number): unique to one challenge and its solution, and
      // only worth remembering until the challenge expires.
      return markSpent(checked.payload.signature, checked.expiresAt);
    },
  };
}

/** The widget's payload (base64 of JSON), or null for anything else; never throws. */
function decodePayload(raw: unknown): Payload | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_PAYLOAD_CHARS) return null;
  if (raw.length % 4 !== 0 || !BASE64.test(raw)) return null;
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const { algorithm, challenge, number, salt, signature } = data as Record<string, unknown>;
  if (algorithm !== ALGORITHM) return null;
  if (typeof challenge !== 'string' || !HEX.test(challenge)) return null;
  if (typeof signature !== 'string' || !HEX.test(signature)) return null;
  if (typeof salt !== 'string' || salt.length === 0) return null;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) return null;
  return { algorithm, challenge, number, salt, signature };
}

function expiryOf(payload: Payload): Date | null {
  let expires: string | undefined;
  try {
    expires = extractParams(payload).expires;
  } catch {
    return null;
  }
  if (!expires || !/^\d+$/.test(expires)) return null;
  const seconds = Number(expires);
  return Number.isSafeInteger(seconds) ? new Date(seconds * 1000) : null;
}
