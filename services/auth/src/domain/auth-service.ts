// The auth service's rules (docs/product.md#4-states-and-transitions, #5-validation-rules, #8-error-catalogue
// and ADR 0019, ADR 0035): who may register, the password rule, the captcha, confirmation and reset links
// bound to the address they were mailed to, login with growing delays per account (taken before the password
// check; the owner gets in with a captcha meanwhile) and no account enumeration, throttled registration,
// eligibility checks and reset mails, sessions that end for good (logout, password change or reset, a reused
// refresh token), the contributor-only access lists and the per-member quotas the gateway asks about, and
// members' data: their account exported, or deleted with the password again. Knows nothing of gRPC, HTTP or
// Prisma: it works through its ports.
import {
  ADMIN_ROLE,
  CAPTCHA_MESSAGES,
  isEmailEligible,
  isPasswordValid,
  PASSWORD_MESSAGES,
  requiredFieldsMessage,
  waitInWords,
} from '@rotunda/rules';
import {
  type Caller,
  CONTRIBUTOR_ROLE,
  DomainError,
  invalidArgument,
  permissionDenied,
  unauthenticated,
} from '@rotunda/service-kit';
import { addressKeys } from './client-address.ts';
import { alreadyRegisteredMail, confirmationMail, passwordResetMail } from './mail-templates.ts';
import {
  type AccessLists,
  type AccountDeletion,
  type Captcha,
  type EndedSessions,
  type EndedSessionsPage,
  type GrowingDelay,
  type IdentityProvider,
  type IdentityUser,
  type Mailer,
  type OneTimeTokenPurpose,
  type OneTimeTokens,
  type RateLimit,
  SessionEnded,
  type TokenSet,
} from './ports.ts';

export const MESSAGES = {
  registered: 'Registration successful! Please check your email to confirm your account.',
  confirmed: 'Your email is confirmed!',
  confirmLinkInvalid: 'This confirmation link is invalid or has expired.',
  invalidCredentials: 'Invalid credentials',
  confirmFirst: 'Please confirm your email to log in',
  resetSent: 'Password reset link has been sent to your email',
  resetDone: 'Password has been reset',
  resetLinkInvalid: 'This reset link is invalid or has expired.',
  updated: 'Password has been updated',
  wrongCurrentPassword: 'Your current password is incorrect.',
  contributorsOnly: 'Contributors only',
  loginRequired: 'Please log in.',
} as const;

/** The most emails one FindUserIdsByEmail call looks up. */
export const FIND_USERS_LIMIT = 100;
/** The most members one GetMemberEmails call names (the notification service's mail batches). */
export const MEMBER_EMAILS_LIMIT = 1000;

export interface AuthSettings {
  productName: string;
  /**
   * Where people who cannot register ask for access (docs/product.md#1-what-the-product-does-and-for-whom).
   */
  accessEmail: string;
  confirmLinkHours: number;
  resetLinkMinutes: number;
}

/**
 * One limit per client address (see client-address.ts): `host` counts an IPv4 address or an IPv6 /64,
 * `network` the IPv6 /48 around it, with a higher limit.
 */
export interface AddressLimit {
  host: RateLimit;
  network: RateLimit;
}

/** One kind of request limited both per client address and per email it names. */
export interface RequestLimits {
  byAddress: AddressLimit;
  byEmail: RateLimit;
}

export interface AuthLimits {
  /** Password tries per account, at login and when changing the password: a few free, then growing waits. */
  accountFailures: GrowingDelay;
  /**
   * Password tries per address, every try but the successful ones: guessing across many accounts from one
   * address stops, and so does keeping one account slowed down (an office's members, who mostly type their
   * password right, never meet it).
   */
  addressFailures: AddressLimit;
  register: RequestLimits;
  checkEmail: RequestLimits;
  passwordReset: RequestLimits;
  /** Refresh-token grants per address: generous (a whole office renews every few minutes), but not unlimited. */
  refreshByAddress: RateLimit;
  /** Per-member quotas the gateway asks about (ConsumeQuota), keyed by the caller's user id. */
  quotas: Record<Quota, RateLimit>;
}

/** The per-member quotas: images stored, other members' profile pages read. */
export const QUOTAS = ['image-upload', 'profile-read'] as const;
export type Quota = (typeof QUOTAS)[number];
const isQuota = (name: string): name is Quota => (QUOTAS as readonly string[]).includes(name);

export interface AuthDependencies {
  identity: IdentityProvider;
  tokens: OneTimeTokens;
  lists: AccessLists;
  mailer: Mailer;
  captcha: Captcha;
  limits: AuthLimits;
  endedSessions: EndedSessions;
  accounts: AccountDeletion;
  settings: AuthSettings;
}

/**
 * The member as the screens know them (docs/product.md#3-entities-and-their-fields Auth user), less token and
 * profile id.
 */
export interface AuthUser {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  contributor: boolean;
  /** Holds the realm role 'admin': administers who may register and members' roles. */
  admin: boolean;
  emailConfirmed: boolean;
}

export const toAuthUser = (user: IdentityUser): AuthUser => ({
  userId: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
  contributor: user.roles.includes(CONTRIBUTOR_ROLE),
  admin: user.roles.includes(ADMIN_ROLE),
  emailConfirmed: user.emailVerified,
});

const tooManyMessage = (seconds: number) => `Too many attempts. Try again in ${waitInWords(seconds)}.`;
export const tooMany = (seconds: number) => new DomainError('resource_exhausted', tooManyMessage(seconds));

/**
 * A login refused because the account is slowed down after wrong passwords: the right password with a solved
 * captcha would pass now (the edges tell the login form to show the captcha).
 */
export class AccountSlowedDown extends DomainError {
  override name = 'AccountSlowedDown';

  constructor(seconds: number) {
    super('resource_exhausted', tooManyMessage(seconds));
  }
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();
/** The key of a one-tier address limit: the client's IPv4 address or IPv6 /64 (see client-address.ts). */
const addressOf = (clientIp: string) => addressKeys(clientIp).host;

export function createAuthService(deps: AuthDependencies) {
  const { identity, tokens, lists, mailer, captcha, limits, endedSessions, accounts, settings } = deps;

  /** The address limit's keys for this client: its host, and for IPv6 its /48 too. */
  const keysOf = (limit: AddressLimit, clientIp: string) => {
    const keys = addressKeys(clientIp);
    return [
      { limit: limit.host, key: keys.host },
      ...(keys.network ? [{ limit: limit.network, key: keys.network }] : []),
    ];
  };

  /** Counts one request from the address; the seconds to wait when it is over a tier's limit, else 0. */
  async function fromAddress(limit: AddressLimit, clientIp: string): Promise<number> {
    // Every tier counts each request, even once another is over.
    const waits = await Promise.all(keysOf(limit, clientIp).map(({ limit, key }) => limit.attempt(key)));
    return Math.max(...waits);
  }

  async function refundAddress(limit: AddressLimit, clientIp: string): Promise<void> {
    await Promise.all(keysOf(limit, clientIp).map(({ limit, key }) => limit.refund(key)));
  }

  /** Counts the request against both of its limits; refuses it when either is used up. */
  async function throttle(kind: RequestLimits, clientIp: string, email: string): Promise<void> {
    // Both are counted even when one is over, so each limit sees every request.
    const waits = await Promise.all([fromAddress(kind.byAddress, clientIp), kind.byEmail.attempt(email)]);
    const wait = Math.max(...waits);
    if (wait > 0) throw tooMany(wait);
  }

  /**
   * Takes the address's point, then the account's try, before a password check, so that tries sent at once
   * are counted before any of them is checked. Answers the seconds the account must wait (0: the try is
   * taken); refuses outright when the address must wait. Every try counts against the address, the account's
   * refused ones too: whoever keeps an account slowed down pays with their own address.
   */
  async function reservePasswordTry(email: string, clientIp: string): Promise<number> {
    const addressWait = await fromAddress(limits.addressFailures, clientIp);
    if (addressWait > 0) throw tooMany(addressWait);
    return limits.accountFailures.reserve(email);
  }

  /**
   * The identity provider's answer to a password try taken by reservePasswordTry. When it fails to answer (away,
   * late) the password was never checked: the try is given back to the account and the address, so a sign-in
   * refused during an identity outage is no failed attempt and never slows the member down once it is back.
   */
  async function checkedPassword<T>(email: string, clientIp: string, check: () => Promise<T>): Promise<T> {
    try {
      return await check();
    } catch (failure) {
      await Promise.all([
        limits.accountFailures.release(email),
        refundAddress(limits.addressFailures, clientIp),
      ]);
      throw failure;
    }
  }

  /** The right password: the account's tries are forgiven, and this try's address point given back. */
  async function passwordRight(email: string, clientIp: string): Promise<void> {
    await Promise.all([limits.accountFailures.reset(email), refundAddress(limits.addressFailures, clientIp)]);
  }

  /**
   * Spends a one-time token and answers its account, if the account's email is still the address the link was
   * mailed to: a link sent to an address the account no longer has must not act for it.
   */
  async function holderOf(token: string, purpose: OneTimeTokenPurpose): Promise<IdentityUser | null> {
    const holder = token ? await tokens.consume(token, purpose) : null;
    if (!holder) return null;
    const user = await identity.findUserById(holder.userId);
    return user && normalizeEmail(user.email) === normalizeEmail(holder.email) ? user : null;
  }

  async function eligible(email: string): Promise<boolean> {
    const [approvedDomains, approvedEmails, betaEmails] = await Promise.all([
      lists.approvedDomains(),
      lists.approvedEmails(),
      lists.betaEmails(),
    ]);
    return isEmailEligible(email, { approvedDomains, approvedEmails, betaEmails });
  }

  async function spendCaptcha(payload: string): Promise<void> {
    if (!payload.trim()) throw invalidArgument(CAPTCHA_MESSAGES.missing);
    if (!(await captcha.spend(payload))) throw invalidArgument(CAPTCHA_MESSAGES.failed);
  }

  function requirePassword(password: string): void {
    if (!isPasswordValid(password)) throw invalidArgument(PASSWORD_MESSAGES.doesNotMeetCriteria);
  }

  function requireContributor(caller: Caller | undefined): void {
    if (!caller) throw unauthenticated(MESSAGES.loginRequired);
    if (!caller.roles.includes(CONTRIBUTOR_ROLE)) throw permissionDenied(MESSAGES.contributorsOnly);
  }

  async function sendConfirmation(user: IdentityUser, appUrl: string): Promise<void> {
    const token = await tokens.issue(
      { userId: user.id, email: user.email },
      'confirm-email',
      settings.confirmLinkHours * 3600,
    );
    await mailer.send({
      to: user.email,
      ...confirmationMail({
        firstName: user.firstName,
        link: `${appUrl}/confirm-email/${token}`,
        productName: settings.productName,
        accessEmail: settings.accessEmail,
      }),
    });
  }

  return {
    async checkEmail(input: { email: string; clientIp: string }): Promise<boolean> {
      const email = normalizeEmail(input.email);
      await throttle(limits.checkEmail, input.clientIp, email);
      return eligible(email);
    },

    verifyCaptcha: (payload: string) => captcha.verify(payload),

    createCaptchaChallenge: () => captcha.createChallenge(),

    async register(input: {
      firstName: string;
      lastName: string;
      email: string;
      password: string;
      captchaPayload: string;
      appUrl: string;
      clientIp: string;
    }): Promise<string> {
      const email = normalizeEmail(input.email);
      const missing = requiredFieldsMessage({
        'First Name': input.firstName,
        'Last Name': input.lastName,
        Email: email,
        Password: input.password,
      });
      if (missing) throw invalidArgument(missing);
      requirePassword(input.password);
      await spendCaptcha(input.captchaPayload);
      // After the captcha, so only requests that paid its work count against a target inbox.
      await throttle(limits.register, input.clientIp, email);
      if (!(await eligible(email))) {
        throw permissionDenied(
          `This email cannot register. Email ${settings.accessEmail} to request access.`,
        );
      }
      const existing = await identity.findUserByEmail(email);
      if (existing) {
        // Same answer as a new registration, so the form never reveals who has an account; the owner is told.
        if (!existing.emailVerified) {
          await tokens.revokeAll(existing.id, 'confirm-email');
          await sendConfirmation(existing, input.appUrl);
        } else {
          await mailer.send({
            to: existing.email,
            ...alreadyRegisteredMail({
              firstName: existing.firstName,
              loginUrl: `${input.appUrl}/`,
              resetUrl: `${input.appUrl}/`,
              productName: settings.productName,
              accessEmail: settings.accessEmail,
            }),
          });
        }
        return MESSAGES.registered;
      }
      const user = await identity.createUser({
        email,
        firstName: input.firstName.trim(),
        lastName: input.lastName.trim(),
        password: input.password,
      });
      await sendConfirmation(user, input.appUrl);
      return MESSAGES.registered;
    },

    async confirmRegistration(token: string): Promise<string> {
      const user = await holderOf(token, 'confirm-email');
      if (!user) throw invalidArgument(MESSAGES.confirmLinkInvalid);
      await identity.setEmailVerified(user.id, true);
      return MESSAGES.confirmed;
    },

    /**
     * Signs in with the password. While the account is slowed down after wrong passwords, a solved captcha
     * stands in for the wait (never for the password): its owner gets in whoever keeps it slowed down.
     */
    async login(input: {
      email: string;
      password: string;
      clientIp: string;
      captchaPayload?: string;
    }): Promise<{ user: AuthUser; tokens: TokenSet }> {
      const email = normalizeEmail(input.email);
      const wait = await reservePasswordTry(email, input.clientIp);
      if (wait > 0) {
        if (!input.captchaPayload?.trim()) throw new AccountSlowedDown(wait);
        await spendCaptcha(input.captchaPayload);
      }
      const granted =
        email && input.password
          ? await checkedPassword(email, input.clientIp, () => identity.passwordGrant(email, input.password))
          : null;
      if (!granted) {
        await limits.accountFailures.fail(email);
        throw unauthenticated(MESSAGES.invalidCredentials);
      }
      // The password is right: whatever comes next, the try was not a guess.
      await passwordRight(email, input.clientIp);
      const user = await identity.findUserByEmail(email);
      if (!user) throw unauthenticated(MESSAGES.invalidCredentials);
      if (!user.emailVerified) {
        // Its tokens never left this service, so nothing needs to learn that it ended.
        await identity.logout(granted.refreshToken);
        throw unauthenticated(MESSAGES.confirmFirst);
      }
      return { user: toAuthUser(user), tokens: granted };
    },

    async refresh(refreshToken: string, clientIp = ''): Promise<TokenSet> {
      const wait = await limits.refreshByAddress.attempt(addressOf(clientIp));
      if (wait > 0) throw tooMany(wait);
      try {
        return await identity.refresh(refreshToken);
      } catch (error) {
        if (error instanceof SessionEnded) await endedSessions.record([error.sessionId]);
        throw error;
      }
    },

    async logout(refreshToken: string): Promise<void> {
      const ended = await identity.logout(refreshToken);
      if (ended) await endedSessions.record([ended]);
    },

    /** One page of the sessions ended since `cursor`: at most `limit` ids (0 for the store's page size). */
    listEndedSessions: (cursor: string, limit = 0): Promise<EndedSessionsPage> =>
      endedSessions.since(cursor, limit || undefined),

    async requestPasswordReset(input: {
      email: string;
      captchaPayload: string;
      appUrl: string;
      clientIp: string;
    }): Promise<string> {
      const email = normalizeEmail(input.email);
      if (!email) throw invalidArgument(requiredFieldsMessage({ Email: email }) ?? '');
      await spendCaptcha(input.captchaPayload);
      await throttle(limits.passwordReset, input.clientIp, email);
      const user = await identity.findUserByEmail(email);
      if (user) {
        await tokens.revokeAll(user.id, 'reset-password');
        const token = await tokens.issue(
          { userId: user.id, email: user.email },
          'reset-password',
          settings.resetLinkMinutes * 60,
        );
        await mailer.send({
          to: user.email,
          ...passwordResetMail({
            firstName: user.firstName,
            link: `${input.appUrl}/reset-password/${token}`,
            productName: settings.productName,
            accessEmail: settings.accessEmail,
            expiresInMinutes: settings.resetLinkMinutes,
          }),
        });
      }
      return MESSAGES.resetSent;
    },

    async resetPassword(token: string, password: string): Promise<string> {
      requirePassword(password);
      const user = await holderOf(token, 'reset-password');
      if (!user) throw invalidArgument(MESSAGES.resetLinkInvalid);
      await identity.setPassword(user.id, password);
      await endedSessions.record(await identity.endSessions(user.id));
      await tokens.revokeAll(user.id, 'reset-password');
      // The link reached the mailbox, which proves the address as well as a confirmation would.
      await identity.setEmailVerified(user.id, true);
      // Whoever slowed the account down guessed at a password that no longer exists: the owner logs in at once.
      await limits.accountFailures.reset(normalizeEmail(user.email));
      return MESSAGES.resetDone;
    },

    /**
     * Changes the caller's password and ends their other sessions; `sessionId`, the session the request was
     * made in, stays. Wrong current passwords are throttled like failed logins, on the same counts.
     */
    async updatePassword(
      caller: Caller | undefined,
      input: { currentPassword: string; newPassword: string; sessionId: string; clientIp: string },
    ): Promise<string> {
      if (!caller) throw unauthenticated(MESSAGES.loginRequired);
      const user = await identity.findUserById(caller.userId);
      if (!user) throw unauthenticated(MESSAGES.loginRequired);
      const email = normalizeEmail(user.email);
      const wait = await reservePasswordTry(email, input.clientIp);
      if (wait > 0) throw tooMany(wait);
      const right = await checkedPassword(email, input.clientIp, () =>
        identity.checkPassword(user.email, input.currentPassword),
      );
      if (!right) {
        await limits.accountFailures.fail(email);
        throw invalidArgument(MESSAGES.wrongCurrentPassword);
      }
      await passwordRight(email, input.clientIp);
      requirePassword(input.newPassword);
      await identity.setPassword(user.id, input.newPassword);
      await endedSessions.record(await identity.endSessions(user.id, input.sessionId || undefined));
      return MESSAGES.updated;
    },

    /**
     * Everything this service holds about the caller ("Download my data"): their account as the identity
     * provider keeps it. Never a password hash, token or secret.
     */
    async exportMine(caller: Caller | undefined): Promise<{ account: Record<string, unknown> }> {
      if (!caller) throw unauthenticated(MESSAGES.loginRequired);
      const [user, createdAt] = await Promise.all([
        identity.findUserById(caller.userId),
        identity.createdAt(caller.userId),
      ]);
      if (!user) throw unauthenticated(MESSAGES.loginRequired);
      return {
        account: {
          user_id: user.id,
          email: user.email,
          first_name: user.firstName,
          last_name: user.lastName,
          email_confirmed: user.emailVerified,
          contributor: user.roles.includes(CONTRIBUTOR_ROLE),
          roles: user.roles,
          created_at: createdAt?.toISOString() ?? null,
        },
      };
    },

    /**
     * Deletes the caller's account for good, with the password again: a wrong one deletes nothing and is
     * throttled like a failed login, on the same counts. The sessions end at once (the gateways refuse their
     * tokens) and the other services delete their part on the recorded `account.deleted`.
     */
    async deleteAccount(
      caller: Caller | undefined,
      input: { password: string; clientIp: string },
    ): Promise<void> {
      if (!caller) throw unauthenticated(MESSAGES.loginRequired);
      const user = await identity.findUserById(caller.userId);
      if (!user) throw unauthenticated(MESSAGES.loginRequired);
      const email = normalizeEmail(user.email);
      const wait = await reservePasswordTry(email, input.clientIp);
      if (wait > 0) throw tooMany(wait);
      const right = input.password
        ? await checkedPassword(email, input.clientIp, () =>
            identity.checkPassword(user.email, input.password),
          )
        : false;
      if (!right) {
        await limits.accountFailures.fail(email);
        throw unauthenticated(MESSAGES.invalidCredentials);
      }
      // Forgiven first: whoever registers this address again starts with a clean count.
      await passwordRight(email, input.clientIp);
      await accounts.deleteAccount(user.id);
    },

    /**
     * Internal (the notification service's mail; never reachable from the gateway): the email of each member
     * named who has an account, unknown ones left out. At most MEMBER_EMAILS_LIMIT a call.
     */
    async getMemberEmails(userIds: readonly string[]): Promise<{ userId: string; email: string }[]> {
      if (userIds.length > MEMBER_EMAILS_LIMIT)
        throw invalidArgument(`Ask for at most ${MEMBER_EMAILS_LIMIT} members at a time.`);
      return identity.emailsOf([...new Set(userIds.filter(Boolean))]);
    },

    /**
     * Counts one use of a quota for the caller: the seconds to wait when over it, else 0 (the use is counted).
     * Being over is an answer, not a refusal: the gateway decides how to tell the member.
     */
    async consumeQuota(caller: Caller | undefined, quota: string): Promise<number> {
      if (!caller) throw unauthenticated(MESSAGES.loginRequired);
      if (!isQuota(quota)) throw invalidArgument(`Unknown quota: ${quota}`);
      return limits.quotas[quota].attempt(caller.userId);
    },

    listEmailDomains: () => lists.approvedDomains(),

    async listBetaEmails(caller: Caller | undefined): Promise<string[]> {
      requireContributor(caller);
      return lists.betaEmails();
    },

    async listApprovedEmails(caller: Caller | undefined): Promise<string[]> {
      requireContributor(caller);
      return lists.approvedEmails();
    },

    /**
     * Internal (other services' demo seeds; never reachable from the gateway): the account of each email that
     * has one, as the identity provider stores it. At most FIND_USERS_LIMIT emails a call.
     */
    async findUserIdsByEmail(emails: readonly string[]): Promise<{ email: string; userId: string }[]> {
      if (emails.length > FIND_USERS_LIMIT)
        throw invalidArgument(`Ask for at most ${FIND_USERS_LIMIT} emails at a time.`);
      const wanted = [...new Set(emails.map((email) => email.trim().toLowerCase()).filter(Boolean))];
      const users = await Promise.all(wanted.map((email) => identity.findUserByEmail(email)));
      return users.flatMap((user) => (user ? [{ email: user.email, userId: user.id }] : []));
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
