// The /auth/* REST paths of docs/api.md: bodies validated here, then forwarded to the auth
// service over gRPC, its answers shaped exactly as documented. Only the member-only calls look at the access
// token: logging in, registering or ending a session must work even while a stale token is still sent. Agency
// sign-in (ADR 0044) starts and finishes here too, and Keycloak's back-channel logouts arrive here.
import { status } from '@grpc/grpc-js';
import type { AuthUser, TokenSet } from '@rotunda/protos/auth';
import { CAPTCHA_MESSAGES, emailDomain, isPasswordValid, PASSWORD_MESSAGES } from '@rotunda/rules';
import { CONTRIBUTOR_ROLE } from '@rotunda/service-kit';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import { requireMember, requireRole } from '../auth/middleware.ts';
import type { TokenVerifier } from '../auth/verify.ts';
import { call, ServiceCallError, type ServiceClients } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { HttpError, httpErrorOf } from '../http/errors.ts';
import { parseBody, requiredText } from '../http/validation.ts';

/** The longest token (one-time link token, refresh token) the gateway forwards; Keycloak's are ~1–2 kB. */
const MAX_TOKEN_LENGTH = 8192;
/** Long enough for any passphrase, short enough that hashing it is no denial of service. */
const MAX_PASSWORD_LENGTH = 1024;

const email = () => requiredText('email', { max: 254 });
const captcha = (field: string) =>
  requiredText(field, { max: MAX_TOKEN_LENGTH, missing: CAPTCHA_MESSAGES.missing });
const password = (field: string) => requiredText(field, { max: MAX_PASSWORD_LENGTH, trim: false });
const newPassword = (field: string) =>
  password(field).refine(isPasswordValid, PASSWORD_MESSAGES.doesNotMeetCriteria);
const token = (field: string) => requiredText(field, { max: MAX_TOKEN_LENGTH });

// Keys are listed in the order a form shows its fields, so the first message is the first thing to fix.
const bodies = {
  verify: z.object({ captchaValue: captcha('captchaValue') }),
  checkEmail: z.object({ email: email() }),
  register: z.object({
    first_name: requiredText('first_name', { max: 100 }),
    last_name: requiredText('last_name', { max: 100 }),
    email: email().refine((value) => emailDomain(value) !== null, 'email must be a valid email address'),
    password: newPassword('password'),
    captchaValue: captcha('captchaValue'),
  }),
  confirmRegistration: z.object({ token: token('token') }),
  login: z.object({
    email: email(),
    password: password('password'),
    // Asked for only while the account is slowed down after wrong passwords (captcha_required on the 429).
    captchaValue: z
      .string({ error: 'captchaValue must be text' })
      .max(MAX_TOKEN_LENGTH, `captchaValue must be at most ${MAX_TOKEN_LENGTH} characters`)
      .optional(),
  }),
  logout: z.object({ refreshToken: token('refreshToken') }),
  startAgency: z.object({ email: email() }),
  // Keycloak's code and the state Rotunda gave it, both opaque here.
  completeAgency: z.object({ code: token('code'), state: token('state') }),
  requestPasswordReset: z.object({ email: email(), reCaptcha_token: captcha('reCaptcha_token') }),
  resetPassword: z.object({ password: newPassword('password') }),
  // The spec's client also sends `token` in the body; the header already carries it, so it is ignored.
  updatePassword: z.object({
    currentPassword: password('currentPassword'),
    newPassword: newPassword('newPassword'),
  }),
};

/**
 * docs/api.md answers 400 for every refusal of some calls (unknown, used or expired one-time token; wrong
 * current password), whatever status the service chose for it; rate limits and outages keep theirs.
 */
async function refusalsAre400<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    const { status, message } = httpErrorOf(error);
    if (status >= 400 && status < 500 && status !== 429) throw new HttpError(400, message);
    throw error;
  }
}

/**
 * The auth service's trailer on a login refused because the account is slowed down: the right password with a
 * solved captcha would pass (auth.proto, Login).
 */
const CAPTCHA_REQUIRED_TRAILER = 'captcha-required';

/**
 * A login refusal that a solved captcha would lift: answered as the usual 429 (message, Retry-After) plus
 * `captcha_required: true`, which tells the login form to show the captcha. Anything else goes on as it is.
 */
async function askingForCaptcha<T>(answer: Promise<T>, res: Response): Promise<T | undefined> {
  try {
    return await answer;
  } catch (error) {
    const slowedDown =
      error instanceof ServiceCallError &&
      error.grpc.code === status.RESOURCE_EXHAUSTED &&
      error.grpc.metadata?.get(CAPTCHA_REQUIRED_TRAILER)[0] === 'true';
    if (!slowedDown) throw error;
    const { status: code, message, retryAfter } = httpErrorOf(error);
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    res.status(code).json({ errors: [{ msg: message }], captcha_required: true });
    return undefined;
  }
}

/**
 * The answer of every completed sign-in (docs/api.md, POST /auth/login): tokens, and the member as screens
 * know them.
 */
const signedInJson = (user: AuthUser, tokens: TokenSet, profileId: number | null) => ({
  token: tokens.access_token,
  refreshToken: tokens.refresh_token,
  expiresIn: tokens.expires_in,
  refreshExpiresIn: tokens.refresh_expires_in,
  user: {
    token: tokens.access_token,
    user_id: user.user_id,
    profile_id: profileId,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    contributor: user.contributor,
    admin: user.admin,
    email_confirmed: user.email_confirmed,
  },
});

/** What Keycloak is answered for a logout token that is missing or does not verify (OIDC Back-Channel Logout 2.8). */
const INVALID_LOGOUT = { error: 'invalid_request' };

export interface AuthRouterDependencies {
  clients: Pick<ServiceClients, 'auth' | 'profile' | 'deadlineMs'>;
  /** Verifies the access token onto req.caller (see auth/middleware.ts). */
  authenticate: RequestHandler;
  /** Verifies an access token: an agency sign-in's new one, to claim a profile as its member. */
  verifyToken: TokenVerifier;
  /** Where links in the service's mails point: the configured public origin, not the request's Host. */
  publicUrl: string;
  /** The deadline of calls that wait on Keycloak hashing a password (config PASSWORD_DEADLINE_MS). */
  passwordDeadlineMs: number;
}

export function authRouter({
  clients,
  authenticate,
  verifyToken,
  publicUrl,
  passwordDeadlineMs,
}: AuthRouterDependencies): Router {
  const router = express.Router();
  const { auth } = clients;
  const rpc = serviceCaller(clients, 'auth');
  /** A call that waits on Keycloak hashing a password: its own, longer deadline (ADR 0062). */
  const rpcHashing: typeof rpc = (req, method, request) => rpc(req, method, request, passwordDeadlineMs);
  const askProfile = serviceCaller(clients, 'profile');
  const member = [authenticate, requireMember];

  /**
   * The member's profile id (docs/product.md#2-screens-and-routes: where login leads), null when they have
   * none. The profile service being down must not stop anyone logging in: the member is then sent to create a
   * profile, which checks again before creating one.
   */
  const profileIdOf = async (req: Request, userId: string): Promise<number | null> =>
    (await profileLookup(req, userId)).profileId;
  /** The profile id, and whether the profile service said for sure that there is none. */
  const profileLookup = async (
    req: Request,
    userId: string,
  ): Promise<{ profileId: number | null; surelyNone: boolean }> => {
    try {
      // Logging in sends no access token: the call carries no caller.
      const author = await askProfile(req, clients.profile.getAuthorByUser, { user_id: userId });
      return { profileId: author.profile_id, surelyNone: false };
    } catch (error) {
      if (error instanceof ServiceCallError && error.grpc.code === status.NOT_FOUND)
        return { profileId: null, surelyNone: true };
      req.log.warn({ err: error }, 'login: profile id unavailable');
      return { profileId: null, surelyNone: false };
    }
  };

  /**
   * Agency sign-in (ADR 0044): an agency vouches for its member's email, so the one unclaimed profile with
   * that work email (and their names) is theirs. Claimed as the member, with their new token: the claim rule
   * confirms it at once because the account email is confirmed and equals the work email. The profile id, or
   * null when none was claimed; a failure never fails the sign-in.
   */
  const claimByWorkEmail = async (
    req: Request,
    user: AuthUser,
    accessToken: string,
  ): Promise<number | null> => {
    try {
      const { caller } = await verifyToken(accessToken);
      const context = { requestId: req.id as string, deadlineMs: clients.deadlineMs, caller };
      const { profiles } = await call(
        'profile',
        clients.profile,
        clients.profile.findUnclaimedMatches,
        { first_name: user.first_name, last_name: user.last_name, email: user.email },
        context,
      );
      const [match] = profiles;
      if (!match || profiles.length > 1) return null;
      const claimed = await call(
        'profile',
        clients.profile,
        clients.profile.claimProfile,
        {
          profile_id: match.profile_id,
          claimant_first_name: user.first_name,
          claimant_last_name: user.last_name,
        },
        context,
      );
      return claimed.user_id === user.user_id ? claimed.profile_id : null;
    } catch (error) {
      req.log.warn(
        { err: error },
        'agency sign-in: the profile with the member’s work email was not claimed',
      );
      return null;
    }
  };
  const contributor = [authenticate, requireRole(CONTRIBUTOR_ROLE)];

  router.get('/captcha', async (req, res) => {
    const answer = await rpc(req, auth.createCaptchaChallenge, {});
    // Each challenge is single-use: never let a cache hand the same one to two people.
    res.setHeader('Cache-Control', 'no-store');
    res.json(JSON.parse(answer.challenge_json));
  });

  router.post('/verify', async (req, res) => {
    const body = parseBody(bodies.verify, req);
    const answer = await rpc(req, auth.verifyCaptcha, { payload: body.captchaValue });
    res.json({ success: answer.success });
  });

  router.post('/check-email', async (req, res) => {
    const body = parseBody(bodies.checkEmail, req);
    const answer = await rpc(req, auth.checkEmail, { email: body.email, client_ip: req.ip ?? '' });
    res.json({ eligible: answer.eligible });
  });

  router.post('/register', async (req, res) => {
    const body = parseBody(bodies.register, req);
    const answer = await rpcHashing(req, auth.register, {
      first_name: body.first_name,
      last_name: body.last_name,
      email: body.email,
      password: body.password,
      captcha_payload: body.captchaValue,
      app_url: publicUrl,
      client_ip: req.ip ?? '',
    });
    res.status(201).json({ success: true, message: answer.message });
  });

  router.post('/confirm-registration', async (req, res) => {
    try {
      const body = parseBody(bodies.confirmRegistration, req);
      const answer = await rpc(req, auth.confirmRegistration, { token: body.token });
      res.json({ success: true, message: answer.message || 'Your email is confirmed!' });
    } catch (error) {
      const { status, message } = httpErrorOf(error);
      if (status >= 500 || status === 429) throw error;
      // The confirm page reads `success`: every refusal says it, with the reason in the usual errors list.
      res.status(400).json({ success: false, errors: [{ msg: message }] });
    }
  });

  router.post('/login', async (req, res) => {
    const body = parseBody(bodies.login, req);
    const answer = await askingForCaptcha(
      rpcHashing(req, auth.login, {
        email: body.email,
        password: body.password,
        client_ip: req.ip ?? '',
        captcha_payload: body.captchaValue ?? '',
      }),
      res,
    );
    if (!answer) return;
    const { user, tokens } = answer;
    if (!user || !tokens) throw new Error('the auth service answered a login without user or tokens');
    const profileId = await profileIdOf(req, user.user_id);
    res.setHeader('Cache-Control', 'no-store');
    res.json(signedInJson(user, tokens, profileId));
  });

  // The login dialog asks, as the email is typed, whether an agency signs in its domain. Anything that is not an
  // email simply has no agency.
  router.get('/agency', async (req, res) => {
    const given = typeof req.query.email === 'string' ? req.query.email.trim() : '';
    res.setHeader('Cache-Control', 'no-store');
    if (given.length > 254 || emailDomain(given) === null) {
      res.json({ agency: null });
      return;
    }
    const { agency } = await rpc(req, auth.findAgency, { email: given });
    res.json({ agency: agency ? { alias: agency.alias, name: agency.name } : null });
  });

  router.post('/agency/start', async (req, res) => {
    const body = parseBody(bodies.startAgency, req);
    const { url } = await rpc(req, auth.startAgencySignIn, {
      email: body.email,
      app_url: publicUrl,
      client_ip: req.ip ?? '',
    });
    res.setHeader('Cache-Control', 'no-store');
    res.json({ url });
  });

  router.post('/agency/complete', async (req, res) => {
    const body = parseBody(bodies.completeAgency, req);
    const answer = await rpc(req, auth.completeAgencySignIn, {
      code: body.code,
      state: body.state,
      app_url: publicUrl,
      client_ip: req.ip ?? '',
    });
    const { user, tokens } = answer;
    if (!user || !tokens)
      throw new Error('the auth service answered an agency sign-in without user or tokens');
    const lookup = await profileLookup(req, user.user_id);
    const claimedProfileId = lookup.surelyNone
      ? await claimByWorkEmail(req, user, tokens.access_token)
      : null;
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      ...signedInJson(user, tokens, claimedProfileId ?? lookup.profileId),
      firstSignIn: answer.first_sign_in,
      ...(claimedProfileId === null ? {} : { claimedProfileId }),
    });
  });

  // Keycloak tells of a session that ended (at the agency too): a form post, answered as OIDC Back-Channel Logout
  // 1.0 asks. The token is never logged: it is only passed on.
  router.post(
    '/backchannel-logout',
    express.urlencoded({ extended: false, limit: '64kb' }),
    async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      // Only the form the spec sends: a JSON body (read by the mount's parser) is no logout request.
      const body: unknown = req.is('application/x-www-form-urlencoded') ? req.body : undefined;
      const logoutToken =
        body && typeof body === 'object' && 'logout_token' in body
          ? (body as { logout_token: unknown }).logout_token
          : '';
      if (typeof logoutToken !== 'string' || logoutToken === '' || logoutToken.length > MAX_TOKEN_LENGTH) {
        res.status(400).json(INVALID_LOGOUT);
        return;
      }
      try {
        await rpc(req, auth.backchannelLogout, { logout_token: logoutToken });
      } catch (error) {
        if (httpErrorOf(error).status >= 500) throw error;
        req.log.info('back-channel logout refused: the token did not verify');
        res.status(400).json(INVALID_LOGOUT);
        return;
      }
      res.status(200).end();
    },
  );

  router.post('/logout', async (req, res) => {
    const body = parseBody(bodies.logout, req);
    await rpc(req, auth.logout, { refresh_token: body.refreshToken });
    res.status(204).end();
  });

  router.post('/request-password-reset', async (req, res) => {
    const body = parseBody(bodies.requestPasswordReset, req);
    const answer = await rpc(req, auth.requestPasswordReset, {
      email: body.email,
      captcha_payload: body.reCaptcha_token,
      app_url: publicUrl,
      client_ip: req.ip ?? '',
    });
    res.json({ success: true, message: answer.message });
  });

  router.post('/reset-password/:token', async (req, res) => {
    const resetToken = req.params.token as string;
    if (resetToken.length > MAX_TOKEN_LENGTH)
      throw new HttpError(400, `token must be at most ${MAX_TOKEN_LENGTH} characters`);
    const body = parseBody(bodies.resetPassword, req);
    const answer = await refusalsAre400(
      rpcHashing(req, auth.resetPassword, { token: resetToken, password: body.password }),
    );
    res.json({ success: true, message: answer.message || 'Password has been reset' });
  });

  router.post('/update-password', ...member, async (req, res) => {
    const body = parseBody(bodies.updatePassword, req);
    const answer = await refusalsAre400(
      rpcHashing(req, auth.updatePassword, {
        current_password: body.currentPassword,
        new_password: body.newPassword,
        // The session this request comes from stays; the member's others end.
        session_id: req.sessionId ?? '',
        client_ip: req.ip ?? '',
      }),
    );
    res.json({ success: true, message: answer.message || 'Password has been updated' });
  });

  router.get('/email-domains', async (req, res) => {
    const answer = await rpc(req, auth.listEmailDomains, {});
    res.json(answer.domains.map((domain) => ({ approved_domain: domain })));
  });

  router.get('/beta-access', ...contributor, async (req, res) => {
    const answer = await rpc(req, auth.listBetaEmails, {});
    res.json(answer.emails.map((email) => ({ beta_email: email })));
  });

  router.get('/approved-emails', ...contributor, async (req, res) => {
    const answer = await rpc(req, auth.listApprovedEmails, {});
    res.json(answer.emails.map((email) => ({ work_email: email })));
  });

  return router;
}
