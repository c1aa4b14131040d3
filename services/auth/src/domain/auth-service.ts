// The auth service's rules (spec §4, §5, §8 and DESIGN's fixes): who may register, the password rule, the
// captcha, confirmation and reset links, login with rate limits and no account enumeration, and the
// contributor-only access lists. Knows nothing of gRPC, HTTP or Prisma: it works through its ports.
import {
  CAPTCHA_MESSAGES,
  isEmailEligible,
  isPasswordValid,
  PASSWORD_MESSAGES,
  requiredFieldsMessage,
} from '@rotunda/rules';
import {
  type Caller,
  CONTRIBUTOR_ROLE,
  DomainError,
  invalidArgument,
  permissionDenied,
  unauthenticated,
} from '@rotunda/service-kit';
import { alreadyRegisteredMail, confirmationMail, passwordResetMail } from './mail-templates.ts';
import type {
  AccessLists,
  Captcha,
  IdentityProvider,
  IdentityUser,
  Mailer,
  OneTimeTokens,
  RateLimit,
  TokenSet,
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

export interface AuthSettings {
  productName: string;
  /** Where people who cannot register ask for access (spec §1). */
  accessEmail: string;
  confirmLinkHours: number;
  resetLinkMinutes: number;
}

export interface AuthDependencies {
  identity: IdentityProvider;
  tokens: OneTimeTokens;
  lists: AccessLists;
  mailer: Mailer;
  captcha: Captcha;
  loginLimit: RateLimit;
  resetLimit: RateLimit;
  settings: AuthSettings;
}

/** The member as the screens know them (spec §3 Auth user), less token and profile id. */
export interface AuthUser {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  contributor: boolean;
  emailConfirmed: boolean;
}

const toAuthUser = (user: IdentityUser): AuthUser => ({
  userId: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
  contributor: user.roles.includes(CONTRIBUTOR_ROLE),
  emailConfirmed: user.emailVerified,
});

const tooMany = (seconds: number) =>
  new DomainError('resource_exhausted', `Too many attempts. Try again in ${seconds} seconds.`);

const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function createAuthService(deps: AuthDependencies) {
  const { identity, tokens, lists, mailer, captcha, settings } = deps;

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
    const token = await tokens.issue(user.id, 'confirm-email', settings.confirmLinkHours * 3600);
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
    checkEmail: (email: string) => eligible(normalizeEmail(email)),

    verifyCaptcha: (payload: string) => captcha.verify(payload),

    createCaptchaChallenge: () => captcha.createChallenge(),

    async register(input: {
      firstName: string;
      lastName: string;
      email: string;
      password: string;
      captchaPayload: string;
      appUrl: string;
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
      const userId = token ? await tokens.consume(token, 'confirm-email') : null;
      if (!userId) throw invalidArgument(MESSAGES.confirmLinkInvalid);
      await identity.setEmailVerified(userId, true);
      return MESSAGES.confirmed;
    },

    async login(input: {
      email: string;
      password: string;
      clientIp: string;
    }): Promise<{ user: AuthUser; tokens: TokenSet }> {
      const email = normalizeEmail(input.email);
      const keys = [`account:${email}`, `address:${input.clientIp || 'unknown'}`];
      // Only failures count (a whole office behind one address logs in all morning); once a key has used its
      // failures, it waits.
      const wait = await deps.loginLimit.blocked(keys);
      if (wait > 0) throw tooMany(wait);
      const granted = email && input.password ? await identity.passwordGrant(email, input.password) : null;
      if (!granted) {
        await deps.loginLimit.attempt(keys);
        throw unauthenticated(MESSAGES.invalidCredentials);
      }
      const user = await identity.findUserByEmail(email);
      if (!user) throw unauthenticated(MESSAGES.invalidCredentials);
      if (!user.emailVerified) {
        await identity.logout(granted.refreshToken);
        throw unauthenticated(MESSAGES.confirmFirst);
      }
      // Only the account's count is forgiven: a success elsewhere must not reset an address's guesses.
      await deps.loginLimit.reset([keys[0] as string]);
      return { user: toAuthUser(user), tokens: granted };
    },

    refresh: (refreshToken: string) => identity.refresh(refreshToken),

    logout: (refreshToken: string) => identity.logout(refreshToken),

    async requestPasswordReset(input: {
      email: string;
      captchaPayload: string;
      appUrl: string;
      clientIp: string;
    }): Promise<string> {
      const email = normalizeEmail(input.email);
      if (!email) throw invalidArgument(requiredFieldsMessage({ Email: email }) ?? '');
      await spendCaptcha(input.captchaPayload);
      const wait = await deps.resetLimit.attempt([
        `account:${email}`,
        `address:${input.clientIp || 'unknown'}`,
      ]);
      if (wait > 0) throw tooMany(wait);
      const user = await identity.findUserByEmail(email);
      if (user) {
        await tokens.revokeAll(user.id, 'reset-password');
        const token = await tokens.issue(user.id, 'reset-password', settings.resetLinkMinutes * 60);
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
      const userId = token ? await tokens.consume(token, 'reset-password') : null;
      if (!userId) throw invalidArgument(MESSAGES.resetLinkInvalid);
      await identity.setPassword(userId, password);
      await identity.logoutAll(userId);
      await tokens.revokeAll(userId, 'reset-password');
      // The link reached the mailbox, which proves the address as well as a confirmation would.
      await identity.setEmailVerified(userId, true);
      return MESSAGES.resetDone;
    },

    async updatePassword(
      caller: Caller | undefined,
      currentPassword: string,
      newPassword: string,
    ): Promise<string> {
      if (!caller) throw unauthenticated(MESSAGES.loginRequired);
      const user = await identity.findUserById(caller.userId);
      if (!user) throw unauthenticated(MESSAGES.loginRequired);
      const check = await identity.passwordGrant(user.email, currentPassword);
      if (!check) throw invalidArgument(MESSAGES.wrongCurrentPassword);
      await identity.logout(check.refreshToken);
      requirePassword(newPassword);
      await identity.setPassword(user.id, newPassword);
      return MESSAGES.updated;
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
