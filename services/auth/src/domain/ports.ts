// The auth service's ports: what its rules need from the outside world. Adapters implement them (the
// built-in identity provider or Keycloak, SMTP mail, ALTCHA captcha, Postgres repositories).
import { DomainError } from '@rotunda/service-kit';

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
  /** The email of each account named that exists (unknown ids left out), in no particular order. */
  emailsOf(ids: readonly string[]): Promise<{ userId: string; email: string }[]>;
  /** When the account was made; null for an unknown id. */
  createdAt(id: string): Promise<Date | null>;
  setEmailVerified(userId: string, verified: boolean): Promise<void>;
  /** Replaces the password; the caller decides whether to end the sessions too. */
  setPassword(userId: string, password: string): Promise<void>;
  /** Password grant: tokens when the password is right (whatever the email-verified flag), else null. */
  passwordGrant(email: string, password: string): Promise<TokenSet | null>;
  /** Is this the account's password? Leaves no session behind. */
  checkPassword(email: string, password: string): Promise<boolean>;
  /**
   * Refresh-token grant. Each refresh token works once: the answer carries the next one. Throws DomainError
   * 'unauthenticated' for an expired, revoked or forged token, and RefreshTokenReused, after ending the whole
   * session, for one that was already used (a copy in someone else's hands). The one exception: the token used
   * again within seconds of its rotation while the next one is still unused (two tabs, a reload mid-renewal)
   * is answered that same next refresh token again (ADR 0036).
   */
  refresh(refreshToken: string): Promise<TokenSet>;
  /** Ends the session of this refresh token; answers its id, or null when nothing was left to end. */
  logout(refreshToken: string): Promise<string | null>;
  /**
   * Ends every session of the account but `keep` (after a password change, the one it was made in); all of
   * them without `keep` (after a reset). Answers the ids of the sessions it ended.
   */
  endSessions(userId: string, keep?: string): Promise<string[]>;
  grantRole(userId: string, role: string): Promise<void>;
  revokeRole(userId: string, role: string): Promise<void>;
  /** The public keys that verify access tokens (JWKS). */
  jwks(): Promise<{ keys: Record<string, unknown>[] }>;
  /** How long the access tokens it issues live, in seconds (in Keycloak, the realm's as it stands). */
  accessTokenSeconds(): Promise<number>;
}

/**
 * Deleting an account for good ("Delete my account", ADR 0042): the identity provider's account and its sessions,
 * everything the auth schema keeps of it, the ended sessions the gateways must refuse at once, and the
 * `account.deleted` event on which the other services delete their part, all of it at once or none of it.
 */
export interface AccountDeletion {
  /** Answers the ids of the sessions that ended; an account already gone is deleted again as a no-op. */
  deleteAccount(userId: string): Promise<string[]>;
}

/** A renewal ended its session: the gateways must refuse the session's access tokens at once. */
export class SessionEnded extends DomainError {
  override name = 'SessionEnded';
  readonly sessionId: string;

  constructor(sessionId: string) {
    super('unauthenticated', 'Session not active');
    this.sessionId = sessionId;
  }
}

/** A refresh token came back after it had been used: its session has been ended (OAuth 2.1 §6.1). */
export class RefreshTokenReused extends SessionEnded {
  override name = 'RefreshTokenReused';
}

/**
 * The agency a session was signed in through no longer vouches for the person (disabled there, or its session
 * ended): the renewal ended the session (ADR 0044).
 */
export class AgencyRefused extends SessionEnded {
  override name = 'AgencyRefused';
}

/**
 * Sessions that ended before their time (logout, password change or reset, a reused refresh token). The
 * gateway asks for them every second or so and refuses their access tokens, which would otherwise keep
 * working until they expire.
 */
export interface EndedSessions {
  record(sessionIds: string[]): Promise<void>;
  /**
   * The sessions ended after the cursor of an earlier answer ('' for every one still relevant), at most
   * `limit` of them (cut to the store's own page size).
   */
  since(cursor: string, limit?: number): Promise<EndedSessionsPage>;
}

export interface EndedSessionsPage {
  sessionIds: string[];
  /** Where the next question starts. */
  cursor: string;
  /** How long after its end a session may still have an unexpired access token: keep each id that long. */
  retainSeconds: number;
  /** More ids wait after this page: ask again with its cursor at once. */
  more: boolean;
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

/** So many events per key per window; a key over its limit waits until its window ends. */
export interface RateLimit {
  /**
   * Counts one event for the key, atomically (events sent at once are each counted); answers the seconds to
   * wait when the key is over its limit, else 0.
   */
  attempt(key: string): Promise<number>;
  /** Gives back the point of one counted event that turned out not to count (a success). */
  refund(key: string): Promise<void>;
}

/**
 * Tries per key that may fail (password checks): the first few are free, then the key gets one try per wait,
 * each wait twice the last, up to a cap. A try is taken before the check it guards, so tries sent at once
 * cannot all pass.
 */
export interface GrowingDelay {
  /** Takes the key's next try: 0 when taken, else the seconds to wait (and nothing is taken). */
  reserve(key: string): Promise<number>;
  /** Counts a failed try, whether or not it was reserved (a captcha may stand in for the wait). */
  fail(key: string): Promise<void>;
  /** Gives back a reserved try whose check never happened (the identity provider was away): it cost nothing. */
  release(key: string): Promise<void>;
  /** Forgets the key's tries and waits (after a success, or a completed password reset). */
  reset(key: string): Promise<void>;
}

export type OneTimeTokenPurpose = 'confirm-email' | 'reset-password';

/** Whom a one-time token was issued to: the account, and the address the link was mailed to. */
export interface OneTimeTokenHolder {
  userId: string;
  email: string;
}

export interface OneTimeTokens {
  /**
   * A new single-use token for the account, mailed to `email`, valid for ttlSeconds; only its hash is stored.
   */
  issue(holder: OneTimeTokenHolder, purpose: OneTimeTokenPurpose, ttlSeconds: number): Promise<string>;
  /** Whom the token was issued to, spending it; null when unknown, expired or already used. */
  consume(token: string, purpose: OneTimeTokenPurpose): Promise<OneTimeTokenHolder | null>;
  /** Spends every open token of the account for that purpose. */
  revokeAll(userId: string, purpose: OneTimeTokenPurpose): Promise<void>;
}

/** Who may register besides the .ca.gov rule (docs/product.md#5-validation-rules). Stored lower-case. */
export interface AccessLists {
  approvedDomains(): Promise<string[]>;
  approvedEmails(): Promise<string[]>;
  betaEmails(): Promise<string[]>;
  /** Answers the value as stored (lower-case, a domain without its @) and whether the list changed. */
  add(list: AccessListName, value: string): Promise<AccessListChange>;
  remove(list: AccessListName, value: string): Promise<AccessListChange>;
}

export interface AccessListChange {
  value: string;
  /** false: the value was already there (add) or absent (remove). */
  changed: boolean;
}

export type AccessListName = 'approved-domain' | 'approved-email' | 'beta-email';

/** Who changed access: a member's account, or the command line (no account). */
export interface AdminActor {
  userId: string | null;
  email: string;
}

export interface AdminLogEntry {
  id: number;
  at: Date;
  actor: AdminActor;
  action: 'add' | 'remove' | 'grant' | 'revoke';
  /** The list ('domains', 'emails', 'beta_emails') or the role ('contributor', 'admin'). */
  subject: string;
  value: string;
}

/** The log of every change to the access lists and roles. */
export interface AdminLog {
  record(entry: Omit<AdminLogEntry, 'id' | 'at'>): Promise<void>;
  /** Newest first: at most `limit` entries older than the entry `before` (0: from the newest). */
  page(before: number, limit: number): Promise<AdminLogEntry[]>;
}

/** An agency whose identity provider Keycloak brokers, as the auth schema keeps it (never its client secret). */
export interface AgencyRecord {
  /** Keycloak's identity provider alias: a slug of the name. */
  alias: string;
  name: string;
  protocol: 'oidc' | 'saml';
  /** Lower-case; each belongs to one agency at most. */
  domains: string[];
  metadataUrl: string;
  /** OIDC: the client id the agency issued Rotunda; '' for SAML. */
  clientId: string;
  createdAt: Date;
}

/** The agencies and their email domains. */
export interface AgencyStore {
  /** By name. */
  list(): Promise<AgencyRecord[]>;
  find(alias: string): Promise<AgencyRecord | null>;
  /** The agency that lists exactly this domain. */
  byDomain(domain: string): Promise<AgencyRecord | null>;
  /**
   * Stores the agency with its domains at once, or none of it: answers 'alias_taken' or the first domain
   * another agency holds when one did (a race with another registration).
   */
  add(
    agency: Omit<AgencyRecord, 'createdAt'>,
  ): Promise<AgencyRecord | { taken: 'alias' } | { taken: string }>;
  /** false when there was no such agency. */
  remove(alias: string): Promise<boolean>;
}

/** A brokered sign-in begun: what its completion needs back. */
export interface StartedAgencySignIn {
  codeVerifier: string;
  nonce: string;
  alias: string;
  email: string;
}

export interface AgencySignIns {
  /** Keeps the sign-in under its state's digest (and drops those past their time). */
  begin(stateDigest: string, signIn: StartedAgencySignIn): Promise<void>;
  /**
   * Takes the sign-in once, atomically, with when it began; null when unknown, already taken or older than
   * maxAgeSeconds.
   */
  take(
    stateDigest: string,
    maxAgeSeconds: number,
  ): Promise<(StartedAgencySignIn & { startedAt: Date }) | null>;
}

/** What an agency's provider needs to know of Rotunda, for its IT office. */
export interface AgencyEndpoints {
  redirectUri: string;
  logoutUrl: string;
  /** SAML only; '' for OIDC. */
  spMetadataUrl: string;
}

/**
 * The identity broker (Keycloak): registers agencies' identity providers, sends a person to theirs and takes
 * them back. With the built-in identity provider there is none (`available` false; every call refuses).
 */
export interface AgencyBroker {
  readonly available: boolean;
  /**
   * Creates the identity provider instance from its metadata; the secret stays in the broker. Throws
   * invalid_argument when the broker could not read the metadata.
   */
  register(agency: {
    alias: string;
    name: string;
    protocol: 'oidc' | 'saml';
    metadataUrl: string;
    clientId: string;
    clientSecret: string;
  }): Promise<void>;
  /** Removes the instance; one already gone is no error. */
  unregister(alias: string): Promise<void>;
  endpoints(alias: string, protocol: 'oidc' | 'saml'): AgencyEndpoints;
  /** Where the browser goes: the broker's authorization endpoint, straight on to the agency's provider. */
  authorizationUrl(request: {
    alias: string;
    email: string;
    state: string;
    nonce: string;
    codeChallenge: string;
    redirectUri: string;
  }): string;
  /** The tokens and ID token for the code; null when the broker refuses it (expired, used, forged). */
  exchangeCode(request: {
    code: string;
    codeVerifier: string;
    redirectUri: string;
  }): Promise<{ tokens: TokenSet; idToken: string } | null>;
  /** The aliases of the agencies' providers the account is linked to. */
  federatedLinks(userId: string): Promise<string[]>;
  /** Deletes the account (and its sessions); one already gone is no error. */
  deleteUser(userId: string): Promise<void>;
}
