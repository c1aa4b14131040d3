// The ALTCHA captcha accepts exactly what a real widget solves for this server, once, before it expires.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAltchaCaptcha } from '../src/adapters/altcha-captcha.ts';
import { encodeCaptcha, solveChallengeAsWidget } from './support.ts';

const KEY = 'test-hmac-key-0123456789';
// Small search space so each test solves its challenge in milliseconds.
const MAX_NUMBER = 2_000;

/** markSpent backed by a Map, as the Postgres-backed one behaves: first call true, later calls false. */
function memorySpent() {
  const spent = new Map<string, Date>();
  const markSpent = async (id: string, expiresAt: Date) => {
    if (spent.has(id)) return false;
    spent.set(id, expiresAt);
    return true;
  };
  return { spent, markSpent };
}

function captchaWith(overrides: Partial<Parameters<typeof createAltchaCaptcha>[0]> = {}) {
  return createAltchaCaptcha({
    hmacKey: KEY,
    maxNumber: MAX_NUMBER,
    markSpent: memorySpent().markSpent,
    ...overrides,
  });
}

const encode = encodeCaptcha;
const solve = solveChallengeAsWidget;

afterEach(() => {
  vi.useRealTimers();
});

describe('createAltchaCaptcha', () => {
  it('issues a signed SHA-256 challenge that expires in 10 minutes by default', async () => {
    const before = Math.floor(Date.now() / 1000);
    const challenge = await captchaWith().createChallenge();
    expect(challenge).toMatchObject({ algorithm: 'SHA-256', maxnumber: MAX_NUMBER });
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    const expires = Number(new URLSearchParams(String(challenge.salt).split('?')[1]).get('expires'));
    expect(expires).toBeGreaterThanOrEqual(before + 600);
    expect(expires).toBeLessThanOrEqual(before + 601);
  });

  it('verifies a solved challenge, as often as asked, without spending it', async () => {
    const captcha = captchaWith();
    const payload = encode(await solve(await captcha.createChallenge()));
    expect(await captcha.verify(payload)).toBe(true);
    expect(await captcha.verify(payload)).toBe(true);
    expect(await captcha.spend(payload)).toBe(true);
  });

  it('refuses a forged signature', async () => {
    const captcha = captchaWith();
    const solved = await solve(await captcha.createChallenge());
    const forged = { ...solved, signature: solved.signature.replace(/^./, (c) => (c === '0' ? '1' : '0')) };
    expect(await captcha.verify(encode(forged))).toBe(false);
    expect(await captcha.spend(encode(forged))).toBe(false);
  });

  it('refuses a wrong number', async () => {
    const captcha = captchaWith();
    const solved = await solve(await captcha.createChallenge());
    expect(await captcha.verify(encode({ ...solved, number: solved.number + 1 }))).toBe(false);
  });

  it("refuses another key's challenge", async () => {
    const other = captchaWith({ hmacKey: 'another-key-9876543210' });
    const payload = encode(await solve(await other.createChallenge()));
    expect(await other.verify(payload)).toBe(true);
    expect(await captchaWith().verify(payload)).toBe(false);
  });

  it('refuses a salt whose expiry was pushed back', async () => {
    const captcha = captchaWith();
    const solved = await solve(await captcha.createChallenge());
    const salt = solved.salt.replace(/expires=\d+/, 'expires=9999999999');
    expect(await captcha.verify(encode({ ...solved, salt }))).toBe(false);
  });

  it('refuses an expired challenge', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const captcha = captchaWith({ expiresInSeconds: 60 });
    const payload = encode(await solve(await captcha.createChallenge()));
    expect(await captcha.verify(payload)).toBe(true);
    vi.setSystemTime(Date.now() + 61_000);
    expect(await captcha.verify(payload)).toBe(false);
    expect(await captcha.spend(payload)).toBe(false);
  });

  it('refuses a signed challenge that carries no expiry', async () => {
    // Built with altcha-lib directly and our key: valid for altcha-lib, but not a challenge we issue.
    const { createChallenge } = await import('altcha-lib/v1');
    const challenge = await createChallenge({ hmacKey: KEY, maxNumber: MAX_NUMBER });
    const payload = encode(await solve({ ...challenge }));
    expect(await captchaWith().verify(payload)).toBe(false);
  });

  it('answers false, never throws, for garbage payloads', async () => {
    const captcha = captchaWith();
    const solved = await solve(await captcha.createChallenge());
    const garbage: unknown[] = [
      '',
      'not base64 at all!',
      'abc',
      Buffer.from('not json').toString('base64'),
      encode(null),
      encode([]),
      encode('string'),
      encode({}),
      encode({ ...solved, algorithm: 'SHA-1' }),
      encode({ ...solved, algorithm: undefined }),
      encode({ ...solved, number: String(solved.number) }),
      encode({ ...solved, number: -1 }),
      encode({ ...solved, number: 1.5 }),
      encode({ ...solved, salt: undefined }),
      encode({ ...solved, salt: 42 }),
      encode({ ...solved, signature: undefined }),
      encode({ ...solved, signature: 'zz' }),
      encode({ ...solved, challenge: { nested: true } }),
      `${encode(solved)}#`,
      'A'.repeat(10_000),
      undefined,
      null,
      42,
    ];
    for (const payload of garbage) {
      await expect(captcha.verify(payload as string), String(payload)).resolves.toBe(false);
      await expect(captcha.spend(payload as string), String(payload)).resolves.toBe(false);
    }
  });

  it('spends a payload once: the replay answers false', async () => {
    const store = memorySpent();
    const captcha = captchaWith({ markSpent: store.markSpent });
    const solved = await solve(await captcha.createChallenge());
    const payload = encode(solved);
    expect(await captcha.spend(payload)).toBe(true);
    expect(await captcha.spend(payload)).toBe(false);
    // Keyed by the challenge signature, remembered until the challenge expires.
    const expires = Number(new URLSearchParams(solved.salt.split('?')[1]).get('expires'));
    expect([...store.spent]).toEqual([[solved.signature, new Date(expires * 1000)]]);
  });

  it('does not consult the spent store for an invalid payload', async () => {
    const markSpent = vi.fn(async () => true);
    const captcha = captchaWith({ markSpent });
    expect(await captcha.spend(encode({ nope: true }))).toBe(false);
    expect(markSpent).not.toHaveBeenCalled();
  });

  it('refuses bad options at construction', () => {
    expect(() => captchaWith({ hmacKey: '' })).toThrow(/HMAC key/);
    expect(() => captchaWith({ maxNumber: 0 })).toThrow(/maxNumber/);
    expect(() => captchaWith({ expiresInSeconds: 0 })).toThrow(/expiresInSeconds/);
  });
});
