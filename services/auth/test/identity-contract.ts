// The one contract every identity provider (built-in and Keycloak) must pass, so the auth service behaves
// the same whichever one its configuration picks.
import { randomUUID } from 'node:crypto';
import { DomainError, type DomainErrorKind } from '@rotunda/service-kit';
import { createLocalJWKSet, type JSONWebKeySet, type JWTPayload, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IdentityProvider, type IdentityUser, RefreshTokenReused } from '../src/domain/ports.ts';

export interface IdentityContractSubject {
  provider: IdentityProvider;
  /** How long after its rotation a copy of a refresh token is answered its successor (short here, to wait out). */
  reuseGraceSeconds: number;
  cleanup?: () => Promise<void>;
}

interface AccessClaims extends JWTPayload {
  email?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  email_verified?: unknown;
  sid?: unknown;
  realm_access?: { roles?: unknown };
}

// A real Keycloak answers each call in tens of milliseconds, but a case makes a dozen of them.
const CASE_TIMEOUT_MS = 30_000;
const SETUP_TIMEOUT_MS = 120_000;

/** A fresh address per case, so cases never share an account (nor a brute-force counter) and may rerun. */
const uniqueEmail = () => `contract-${randomUUID()}@example.ca.gov`;
/** Upper, lower, digit and symbol: passes any sensible password policy the provider may enforce. */
const newPassword = () => `Pw#${randomUUID()}`;

export function identityContract(
  name: string,
  setup: () => Promise<IdentityContractSubject>,
  options: { skipReason?: string } = {},
): void {
  const title = `identity contract ${name}`;
  if (options.skipReason) {
    // Said plainly on the output, not only as a count of skipped tests that nobody reads.
    console.log(`${title}: SKIPPED — ${options.skipReason}`);
    // The cases are still registered, so the skipped count is the real number of cases.
    describe.skip(title, () =>
      registerCases(() => {
        throw new Error(`${title} is skipped`);
      }),
    );
    return;
  }

  describe(title, { timeout: CASE_TIMEOUT_MS }, () => {
    let subject: IdentityContractSubject | undefined;
    beforeAll(async () => {
      subject = await setup();
    }, SETUP_TIMEOUT_MS);
    afterAll(async () => {
      await subject?.cleanup?.();
    }, SETUP_TIMEOUT_MS);

    registerCases(() => {
      if (!subject) throw new Error(`${title}: setup did not finish`);
      return subject;
    });
  });
}

function registerCases(subjectOf: () => IdentityContractSubject): void {
  const providerOf = () => subjectOf().provider;
  async function newAccount(overrides: { email?: string } = {}) {
    const provider = providerOf();
    const email = overrides.email ?? uniqueEmail();
    const password = newPassword();
    const user = await provider.createUser({ email, firstName: 'Ada', lastName: 'Lovelace', password });
    return { provider, user, email: email.toLowerCase(), password };
  }

  /** The claims of an access token, verified with the provider's own published keys. */
  async function claimsOf(provider: IdentityProvider, accessToken: string): Promise<AccessClaims> {
    const keys = createLocalJWKSet((await provider.jwks()) as unknown as JSONWebKeySet);
    const { payload } = await jwtVerify<AccessClaims>(accessToken, keys);
    return payload;
  }

  async function grantFor(provider: IdentityProvider, email: string, password: string) {
    const tokens = await provider.passwordGrant(email, password);
    if (!tokens) throw new Error(`password grant for ${email} answered null`);
    return tokens;
  }

  async function expectDomainError(promise: Promise<unknown>, kind: DomainErrorKind) {
    const error = await promise.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe(kind);
  }

  it('creates an account, found by email in any case and by id, stored lower-case with no roles', async () => {
    const mixedCase = `Contract-${randomUUID()}@Example.CA.gov`;
    const { provider, user } = await newAccount({ email: mixedCase });
    const expected: IdentityUser = {
      id: user.id,
      email: mixedCase.toLowerCase(),
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailVerified: false,
      roles: [],
    };
    expect(user).toEqual(expected);
    expect(await provider.findUserByEmail(mixedCase.toUpperCase())).toEqual(expected);
    expect(await provider.findUserByEmail(mixedCase.toLowerCase())).toEqual(expected);
    expect(await provider.findUserById(user.id)).toEqual(expected);
  });

  it('answers null for an unknown email or id', async () => {
    const provider = providerOf();
    expect(await provider.findUserByEmail(uniqueEmail())).toBeNull();
    expect(await provider.findUserById(randomUUID())).toBeNull();
  });

  it("refuses a second account for the same email (any case) with 'already_exists'", async () => {
    const { provider, email } = await newAccount();
    await expectDomainError(
      provider.createUser({
        email: email.toUpperCase(),
        firstName: 'Bo',
        lastName: 'Peep',
        password: newPassword(),
      }),
      'already_exists',
    );
  });

  it("grants tokens for the right password, with Keycloak's claims, verifiable with the JWKS", async () => {
    const { provider, user, email, password } = await newAccount();
    const tokens = await grantFor(provider, email, password);
    expect(tokens.tokenType).toBe('Bearer');
    expect(tokens.expiresIn).toBeGreaterThan(0);
    expect(tokens.refreshExpiresIn).toBeGreaterThan(0);
    expect(typeof tokens.refreshToken).toBe('string');
    expect(tokens.refreshToken.length).toBeGreaterThan(0);
    expect(typeof tokens.sessionState).toBe('string');
    expect(tokens.scope.split(' ')).toContain('openid');

    const claims = await claimsOf(provider, tokens.accessToken);
    expect(claims.sub).toBe(user.id);
    // The gateway refuses access tokens without their session: it could not tell when it ended.
    expect(claims.sid).toBe(tokens.sessionState);
    expect(claims.email).toBe(email);
    expect(claims.given_name).toBe('Ada');
    expect(claims.family_name).toBe('Lovelace');
    expect(claims.email_verified).toBe(false);
    expect(Array.isArray(claims.realm_access?.roles)).toBe(true);
    expect(claims.realm_access?.roles).not.toContain('contributor');
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
  });

  it('also grants tokens when the email is typed in another case', async () => {
    const { provider, user, email, password } = await newAccount();
    const tokens = await grantFor(provider, email.toUpperCase(), password);
    expect((await claimsOf(provider, tokens.accessToken)).sub).toBe(user.id);
  });

  it('answers null for a wrong password and for an unknown email', async () => {
    const { provider, email } = await newAccount();
    expect(await provider.passwordGrant(email, newPassword())).toBeNull();
    expect(await provider.passwordGrant(uniqueEmail(), newPassword())).toBeNull();
  });

  it('records the email as verified, in the account and in the next token', async () => {
    const { provider, user, email, password } = await newAccount();
    await provider.setEmailVerified(user.id, true);
    expect(await provider.findUserById(user.id)).toMatchObject({
      emailVerified: true,
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    const tokens = await grantFor(provider, email, password);
    expect((await claimsOf(provider, tokens.accessToken)).email_verified).toBe(true);
  });

  it("grants and revokes the 'contributor' role, in the account and in the next token", async () => {
    const { provider, user, email, password } = await newAccount();
    await provider.grantRole(user.id, 'contributor');
    // Granting twice changes nothing.
    await provider.grantRole(user.id, 'contributor');
    expect((await provider.findUserById(user.id))?.roles).toEqual(['contributor']);
    expect((await provider.findUserByEmail(email))?.roles).toEqual(['contributor']);
    const granted = await claimsOf(provider, (await grantFor(provider, email, password)).accessToken);
    expect(granted.realm_access?.roles).toContain('contributor');

    await provider.revokeRole(user.id, 'contributor');
    // Revoking a role the account lacks changes nothing.
    await provider.revokeRole(user.id, 'contributor');
    expect((await provider.findUserById(user.id))?.roles).toEqual([]);
    const revoked = await claimsOf(provider, (await grantFor(provider, email, password)).accessToken);
    expect(revoked.realm_access?.roles).not.toContain('contributor');
  });

  it("grants and revokes the realm role 'admin' beside 'contributor', in the account and the next token", async () => {
    const { provider, user, email, password } = await newAccount();
    await provider.grantRole(user.id, 'contributor');
    await provider.grantRole(user.id, 'admin');
    expect((await provider.findUserByEmail(email))?.roles.sort()).toEqual(['admin', 'contributor']);
    const granted = await claimsOf(provider, (await grantFor(provider, email, password)).accessToken);
    expect(granted.realm_access?.roles).toContain('admin');

    await provider.revokeRole(user.id, 'admin');
    expect((await provider.findUserById(user.id))?.roles).toEqual(['contributor']);
    const revoked = await claimsOf(provider, (await grantFor(provider, email, password)).accessToken);
    expect(revoked.realm_access?.roles).not.toContain('admin');
  });

  it('refreshes into a new working access token for the same account', async () => {
    const { provider, user, email, password } = await newAccount();
    const first = await grantFor(provider, email, password);
    const second = await provider.refresh(first.refreshToken);
    expect(second.tokenType).toBe('Bearer');
    expect(second.refreshToken.length).toBeGreaterThan(0);
    const claims = await claimsOf(provider, second.accessToken);
    expect(claims.sub).toBe(user.id);
    expect(claims.email).toBe(email);
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    // The refreshed refresh token keeps the session going too.
    expect((await claimsOf(provider, (await provider.refresh(second.refreshToken)).accessToken)).sub).toBe(
      user.id,
    );
  });

  it('answers the emails of the accounts named, leaving out unknown and malformed ids', async () => {
    const first = await newAccount();
    const second = await newAccount();
    const answer = await first.provider.emailsOf([second.user.id, randomUUID(), 'not-an-id', first.user.id]);
    expect(answer.sort((a, b) => a.email.localeCompare(b.email))).toEqual(
      [
        { userId: first.user.id, email: first.email },
        { userId: second.user.id, email: second.email },
      ].sort((a, b) => a.email.localeCompare(b.email)),
    );
    expect(await first.provider.emailsOf([])).toEqual([]);
  });

  it('answers when an account was made, and null for an unknown id', async () => {
    const before = Date.now();
    const { provider, user } = await newAccount();
    const made = await provider.createdAt(user.id);
    // Keycloak keeps milliseconds, the database too; a second covers the clocks' difference.
    expect(made?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(made?.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await provider.createdAt(randomUUID())).toBeNull();
    expect(await provider.createdAt('not-an-id')).toBeNull();
  });

  it("checks a password: true for the account's own only", async () => {
    const { provider, email, password } = await newAccount();
    expect(await provider.checkPassword(email.toUpperCase(), password)).toBe(true);
    expect(await provider.checkPassword(email, newPassword())).toBe(false);
    expect(await provider.checkPassword(uniqueEmail(), password)).toBe(false);
  });

  it("ends the session on logout, answering its id: its refresh token is then refused with 'unauthenticated'", async () => {
    const { provider, email, password } = await newAccount();
    const tokens = await grantFor(provider, email, password);
    expect(await provider.logout(tokens.refreshToken)).toBe(tokens.sessionState);
    await expectDomainError(provider.refresh(tokens.refreshToken), 'unauthenticated');
    // Logging out again, or with something that is no token at all, is not an error and ends nothing.
    await expect(provider.logout(tokens.refreshToken)).resolves.toBeNull();
    await expect(provider.logout('not-a-token')).resolves.toBeNull();
  });

  it('ends the session on logout with a refresh token a renewal rotated moments before (the two crossed)', async () => {
    const { provider, email, password } = await newAccount();
    const first = await grantFor(provider, email, password);
    const renewed = await provider.refresh(first.refreshToken);
    expect(await provider.logout(first.refreshToken)).toBe(first.sessionState);
    await expectDomainError(provider.refresh(renewed.refreshToken), 'unauthenticated');
    await expectDomainError(provider.refresh(first.refreshToken), 'unauthenticated');
  });

  it('ends every session of the account, answering their ids', async () => {
    const { provider, user, email, password } = await newAccount();
    const phone = await grantFor(provider, email, password);
    const laptop = await grantFor(provider, email, password);
    expect((await provider.endSessions(user.id)).sort()).toEqual(
      [phone.sessionState, laptop.sessionState].sort(),
    );
    await expectDomainError(provider.refresh(phone.refreshToken), 'unauthenticated');
    await expectDomainError(provider.refresh(laptop.refreshToken), 'unauthenticated');
    expect(await provider.endSessions(user.id)).toEqual([]);
  });

  it('ends every session but the one to keep, which goes on refreshing', async () => {
    const { provider, user, email, password } = await newAccount();
    const phone = await grantFor(provider, email, password);
    const laptop = await grantFor(provider, email, password);
    expect(await provider.endSessions(user.id, laptop.sessionState)).toEqual([phone.sessionState]);
    await expectDomainError(provider.refresh(phone.refreshToken), 'unauthenticated');
    const renewed = await provider.refresh(laptop.refreshToken);
    expect((await claimsOf(provider, renewed.accessToken)).sub).toBe(user.id);
  });

  /** The refusal a promise ends with, or undefined when it succeeds. */
  const refusalOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (reason: unknown) => reason,
    );

  it('takes each refresh token once: used again after its successor was, it is refused and its whole session ends', async () => {
    const { provider, email, password } = await newAccount();
    const first = await grantFor(provider, email, password);
    const second = await provider.refresh(first.refreshToken);
    const third = await provider.refresh(second.refreshToken);
    const reuse = await refusalOf(provider.refresh(first.refreshToken));
    expect(reuse).toBeInstanceOf(RefreshTokenReused);
    expect(reuse).toMatchObject({ kind: 'unauthenticated', sessionId: first.sessionState });
    // The token handed out by the legitimate refresh dies with the session.
    await expectDomainError(provider.refresh(third.refreshToken), 'unauthenticated');
    // An unrelated session of the same account goes on.
    const other = await grantFor(provider, email, password);
    expect((await provider.refresh(other.refreshToken)).accessToken.length).toBeGreaterThan(0);
  });

  it('answers two renewals with one refresh token at once (two tabs) with the same successor; the session lives', async () => {
    const { provider, user, email, password } = await newAccount();
    const first = await grantFor(provider, email, password);
    const [a, b] = await Promise.all([
      provider.refresh(first.refreshToken),
      provider.refresh(first.refreshToken),
    ]);
    expect(a.refreshToken).toBe(b.refreshToken);
    for (const answer of [a, b]) expect((await claimsOf(provider, answer.accessToken)).sub).toBe(user.id);
    // A reload that cut the renewal short sends the old token once more: the same successor again.
    expect((await provider.refresh(first.refreshToken)).refreshToken).toBe(a.refreshToken);
    // The successor works, once.
    const next = await provider.refresh(a.refreshToken);
    expect((await claimsOf(provider, next.accessToken)).sid).toBe(first.sessionState);
    expect((await provider.refresh(next.refreshToken)).accessToken.length).toBeGreaterThan(0);
  });

  it('refuses a copy within the grace period once its session has ended (a logout, a password change)', async () => {
    const { provider, user, email, password } = await newAccount();
    const loggedOut = await grantFor(provider, email, password);
    const renewed = await provider.refresh(loggedOut.refreshToken);
    await provider.logout(renewed.refreshToken);
    await expectDomainError(provider.refresh(loggedOut.refreshToken), 'unauthenticated');
    const signedOutElsewhere = await grantFor(provider, email, password);
    await provider.refresh(signedOutElsewhere.refreshToken);
    await provider.endSessions(user.id);
    await expectDomainError(provider.refresh(signedOutElsewhere.refreshToken), 'unauthenticated');
  });

  it('ends the session when a refresh token comes back after the grace period, its successor unused', async () => {
    const subject = subjectOf();
    const { provider, email, password } = await newAccount();
    const first = await grantFor(provider, email, password);
    const second = await provider.refresh(first.refreshToken);
    await new Promise((resolve) => setTimeout(resolve, subject.reuseGraceSeconds * 1000 + 500));
    const reuse = await refusalOf(provider.refresh(first.refreshToken));
    expect(reuse).toBeInstanceOf(RefreshTokenReused);
    expect(reuse).toMatchObject({ sessionId: first.sessionState });
    await expectDomainError(provider.refresh(second.refreshToken), 'unauthenticated');
  });

  it('replaces the password: the old one no longer grants tokens, the new one does', async () => {
    const { provider, user, email, password } = await newAccount();
    const replacement = newPassword();
    await provider.setPassword(user.id, replacement);
    expect(await provider.passwordGrant(email, password)).toBeNull();
    const tokens = await grantFor(provider, email, replacement);
    expect((await claimsOf(provider, tokens.accessToken)).sub).toBe(user.id);
  });

  it("refuses a tampered or forged refresh token with 'unauthenticated'", async () => {
    const { provider, email, password } = await newAccount();
    const { refreshToken } = await grantFor(provider, email, password);
    const [header = '', payload = '', signature = ''] = refreshToken.split('.');
    // A changed first character changes the signature's first byte (a last character may only touch padding).
    const badSignature = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    await expectDomainError(provider.refresh(`${header}.${payload}.${badSignature}`), 'unauthenticated');
    // Claims rewritten under the original signature: someone else's session, a later expiry.
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: randomUUID(), exp: 4_102_444_800 })).toString(
      'base64url',
    );
    await expectDomainError(provider.refresh(`${header}.${forged}.${signature}`), 'unauthenticated');
    await expectDomainError(provider.refresh('not-a-token'), 'unauthenticated');
  });

  it('publishes RS256 signing keys with kid and no private parts', async () => {
    const { keys } = await providerOf().jwks();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(typeof key.kid).toBe('string');
      expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']) expect(key).not.toHaveProperty(secret);
    }
  });
}
