// The auth service's ports: what its rules need from the outside world. Adapters implement them (the
// built-in identity provider or Keycloak, SMTP mail, ALTCHA captcha, Postgres repositories).

/** An account as the identity provider knows it. */
export interface IdentityUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  emailVerified: boolean;
  /** Realm roles, e.g. 'contributor'. */
  roles: string[];
}

/** Keycloak's token response, in the product's words. */
export interface TokenSet {
  accessToken: string;
  /** Seconds. */
  expiresIn: number;
  refreshToken: string;
  /** Seconds until the session ends unless refreshed (Keycloak's SSO session idle). */
  refreshExpiresIn: number;
  tokenType: 'Bearer';
  sessionState: string;
  scope: string;
}

export interface NewIdentityUser {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  emailVerified?: boolean;
}

/**
 * The identity provider: the built-in one (accounts in the auth schema, RS256 tokens shaped like
 * Keycloak's) or Keycloak itself. Emails are compared case-insensitively and stored lower-case.
 */
export interface IdentityProvider {
  /** Throws DomainError 'already_exists' when the email has an account. */
  createUser(user: NewIdentityUser): Promise<IdentityUser>;
  findUserByEmail(email: string): Promise<IdentityUser | null>;
  findUserById(id: string): Promise<IdentityUser | null>;
  setEmailVerified(userId: string, verified: boolean): Promise<void>;
  /** Replaces the password; the caller decides whether to end the sessions too. */
  setPassword(userId: string, password: string): Promise<void>;
  /** Password grant: tokens when the password is right (whatever the email-verified flag), else null. */
  passwordGrant(email: string, password: string): Promise<TokenSet | null>;
  /** Refresh-token grant. Throws DomainError 'unauthenticated' for an expired, revoked or forged token. */
  refresh(refreshToken: string): Promise<TokenSet>;
  /** Ends the session of this refresh token; unknown or expired tokens are ignored. */
  logout(refreshToken: string): Promise<void>;
  /** Ends every session of the account (after a password reset or change). */
  logoutAll(userId: string): Promise<void>;
  grantRole(userId: string, role: string): Promise<void>;
  revokeRole(userId: string, role: string): Promise<void>;
  /** The public keys that verify access tokens (JWKS). */
  jwks(): Promise<{ keys: Record<string, unknown>[] }>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface Captcha {
  /** A new proof-of-work challenge for the browser widget. */
  createChallenge(): Promise<Record<string, unknown>>;
  /** Is this solved challenge (base64 payload, as the widget produces) valid and unexpired? */
  verify(payload: string): Promise<boolean>;
  /** verify, and mark it used so it cannot be replayed; false if invalid, expired or used. */
  spend(payload: string): Promise<boolean>;
}

export interface RateLimit {
  /** Counts one attempt for each key; answers the seconds to wait when any key is over its limit, else 0. */
  attempt(keys: string[]): Promise<number>;
  /** The seconds to wait when any key is over its limit right now, else 0; counts nothing. */
  blocked(keys: string[]): Promise<number>;
  /** Forgets the failures of these keys (after a successful login). */
  reset(keys: string[]): Promise<void>;
}

export type OneTimeTokenPurpose = 'confirm-email' | 'reset-password';

export interface OneTimeTokens {
  /** A new single-use token for the account, valid for ttlSeconds; only its hash is stored. */
  issue(userId: string, purpose: OneTimeTokenPurpose, ttlSeconds: number): Promise<string>;
  /** The account the token was issued to, spending it; null when unknown, expired or already used. */
  consume(token: string, purpose: OneTimeTokenPurpose): Promise<string | null>;
  /** Spends every open token of the account for that purpose. */
  revokeAll(userId: string, purpose: OneTimeTokenPurpose): Promise<void>;
}

/** Who may register besides the .ca.gov rule (spec §5). Stored lower-case. */
export interface AccessLists {
  approvedDomains(): Promise<string[]>;
  approvedEmails(): Promise<string[]>;
  betaEmails(): Promise<string[]>;
  /** Answers the value as stored (lower-case, a domain without its @). */
  add(list: AccessListName, value: string): Promise<string>;
  remove(list: AccessListName, value: string): Promise<string>;
}

export type AccessListName = 'approved-domain' | 'approved-email' | 'beta-email';
