// The access calls of the shell (docs/product.md#7-the-calls-it-makes, Auth; docs/api.md): login, logout,
// email eligibility, register, email confirmation, password reset request and reset, each with the spec's
// messages (docs/product.md#5-validation-rules, #8-error-catalogue); and agency sign-in (ADR 0044): which
// agency signs an email in, starting its sign-in, and finishing it on the way back.
import { CAPTCHA_MESSAGES } from '@rotunda/rules';
import type { AuthUser } from '@rotunda/session';
import { send } from '@rotunda/ui';

export const LOGIN_MESSAGES = {
  confirmEmail: 'Please confirm your email before logging in.',
  invalidCredentials: 'Invalid credentials, please try again',
  failed: 'An error occurred. Please try again later.',
  captchaRequired: 'To log in now, solve the captcha and enter your email and password again.',
} as const;

export const AGENCY_MESSAGES = {
  startFailed: 'Your agency’s sign-in could not be started. Please try again later.',
  completeFailed: 'Sign-in could not be finished. Please try again later.',
  incomplete: 'The address Rotunda was sent back to is incomplete. Please log in again.',
  cancelled: 'The sign-in was cancelled at your agency.',
  refusedAtAgency: 'Your agency did not sign you in.',
} as const;

export const REGISTER_MESSAGES = {
  success: 'Registration successful! Please check your email to confirm your account.',
  junkFolder: 'If it does not arrive within a few minutes, please check your junk or spam folder.',
  failed: 'Registration failed',
  unavailable: 'Access Currently Unavailable',
} as const;

export const RESET_REQUEST_MESSAGES = {
  success: 'Password reset link has been sent to your email',
  failed: 'Error sending password reset link. Please try again later.',
} as const;

export const RESET_MESSAGES = {
  success: 'Password has been reset',
  failed: 'Error resetting password. Please try again later.',
} as const;

export const CONFIRM_MESSAGES = {
  success: 'Your email is confirmed!',
} as const;

/** The server's wording for an unconfirmed account (docs/product.md#8-error-catalogue). */
const UNCONFIRMED_EMAIL = 'Please confirm your email to log in';

/** A failure whose message is meant for the user. */
export class AccessError extends Error {}

/**
 * A login refused while the account is slowed down after wrong passwords: the right password with a solved
 * captcha gets in now (the server's 429 says `captcha_required: true`).
 */
export class CaptchaRequiredError extends AccessError {}

/** The access calls carry no session token (there is none yet, or the keeper passes the one to end). */
const postJson = (path: string, body: unknown, token?: string | null) => send('POST', path, { body, token });

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/** The first error message of a validation-style body: { errors: [{ msg }] } (or `message`). */
function firstErrorMessage(body: unknown): string | undefined {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return undefined;
  const first = errors[0] as { msg?: unknown; message?: unknown } | undefined;
  const message = first?.msg ?? first?.message;
  return typeof message === 'string' ? message : undefined;
}

/** A 429 says how long to wait; its message is shown as the server words it. */
async function tooManyRequests(response: Response, fallback: string): Promise<AccessError> {
  return new AccessError(firstErrorMessage(await readJson(response)) ?? fallback);
}

function isAuthUser(value: unknown): value is AuthUser {
  const user = value as Partial<AuthUser> | null;
  return typeof user?.token === 'string' && typeof user.user_id === 'string';
}

export interface LoginResult {
  user: AuthUser;
  /** Renews the access token while the identity provider's session lasts; null if the server sent none. */
  refreshToken: string | null;
}

/** The login answer's session: { token, refreshToken, …, user } (the user carries the token too); null if malformed. */
function loginResultOf(body: unknown): LoginResult | null {
  const answer = body as { user?: unknown; token?: unknown; refreshToken?: unknown } | null;
  const candidate = answer?.user ?? answer;
  if (!isAuthUser(candidate)) return null;
  // The top-level token is the one the identity provider issued; user.token mirrors it.
  const token = typeof answer?.token === 'string' ? answer.token : candidate.token;
  return {
    user: { ...candidate, token },
    refreshToken: typeof answer?.refreshToken === 'string' ? answer.refreshToken : null,
  };
}

/**
 * Logs in: { token, refreshToken, expiresIn, refreshExpiresIn, user } (the user carries the token too). A solved
 * captcha travels as captchaValue once the server asked for one.
 */
export async function logIn(email: string, password: string, captchaValue?: string): Promise<LoginResult> {
  let response: Response;
  try {
    response = await postJson(
      '/auth/login',
      captchaValue ? { email, password, captchaValue } : { email, password },
    );
  } catch {
    throw new AccessError(LOGIN_MESSAGES.failed);
  }
  if (response.status === 429) {
    const refusal = await readJson(response);
    const message = firstErrorMessage(refusal) ?? LOGIN_MESSAGES.failed;
    if ((refusal as { captcha_required?: unknown } | null)?.captcha_required === true)
      throw new CaptchaRequiredError(message);
    throw new AccessError(message);
  }
  const body = await readJson(response);
  // A spent or expired captcha: the dialog keeps asking for one.
  if (response.status === 400 && firstErrorMessage(body) === CAPTCHA_MESSAGES.failed)
    throw new CaptchaRequiredError(CAPTCHA_MESSAGES.failed);
  if (response.status === 401) {
    throw new AccessError(
      firstErrorMessage(body) === UNCONFIRMED_EMAIL
        ? LOGIN_MESSAGES.confirmEmail
        : LOGIN_MESSAGES.invalidCredentials,
    );
  }
  const result = response.ok ? loginResultOf(body) : null;
  if (!result) throw new AccessError(LOGIN_MESSAGES.failed);
  return result;
}

/** The agency whose identity provider signs an email in. */
export interface AgencyBrief {
  /** The identity provider's alias at Keycloak. */
  alias: string;
  name: string;
}

/**
 * Which agency signs this email in, or null (none, or the question failed: the password sign-in then stays,
 * which every account can use). `signal` cancels a stale question.
 */
export async function findAgency(email: string, signal?: AbortSignal): Promise<AgencyBrief | null> {
  const response = await send('GET', `/auth/agency?${new URLSearchParams({ email })}`, { signal });
  if (!response.ok) throw new Error(`GET /auth/agency answered ${response.status}`);
  const agency = ((await readJson(response)) as { agency?: Partial<AgencyBrief> | null } | null)?.agency;
  return typeof agency?.alias === 'string' && typeof agency.name === 'string'
    ? { alias: agency.alias, name: agency.name }
    : null;
}

/** Starts the agency's sign-in for this email; answers the address to send the browser to. */
export async function startAgencySignIn(email: string): Promise<string> {
  let response: Response;
  try {
    response = await postJson('/auth/agency/start', { email });
  } catch {
    throw new AccessError(AGENCY_MESSAGES.startFailed);
  }
  const body = await readJson(response);
  const url = (body as { url?: unknown } | null)?.url;
  if (response.ok && typeof url === 'string') return url;
  const refusal = response.status < 500 ? firstErrorMessage(body) : undefined;
  throw new AccessError(refusal ?? AGENCY_MESSAGES.startFailed);
}

export interface AgencySignIn extends LoginResult {
  /** The account was made by this sign-in. */
  firstSignIn: boolean;
  /** The unclaimed profile this sign-in claimed for the member, if any. */
  claimedProfileId: number | null;
}

/** Finishes an agency sign-in with the code and state the identity provider sent the browser back with. */
export async function completeAgencySignIn(code: string, state: string): Promise<AgencySignIn> {
  let response: Response;
  try {
    response = await postJson('/auth/agency/complete', { code, state });
  } catch {
    throw new AccessError(AGENCY_MESSAGES.completeFailed);
  }
  const body = await readJson(response);
  if (!response.ok) {
    const refusal = response.status < 500 ? firstErrorMessage(body) : undefined;
    throw new AccessError(refusal ?? AGENCY_MESSAGES.completeFailed);
  }
  const result = loginResultOf(body);
  if (!result) throw new AccessError(AGENCY_MESSAGES.completeFailed);
  const extra = body as { firstSignIn?: unknown; claimedProfileId?: unknown };
  return {
    ...result,
    firstSignIn: extra.firstSignIn === true,
    claimedProfileId: typeof extra.claimedProfileId === 'number' ? extra.claimedProfileId : null,
  };
}

/** Ends the identity provider's session (POST /auth/logout); resolves once the server answered. */
export async function logOut(refreshToken: string, token: string | null): Promise<void> {
  const response = await postJson('/auth/logout', { refreshToken }, token);
  if (!response.ok) throw new Error(`POST /auth/logout answered ${response.status}`);
}

/**
 * May this address register (docs/product.md#5-validation-rules)? Asked as the email is typed; `signal`
 * cancels a stale question.
 */
export async function checkEmail(email: string, signal?: AbortSignal): Promise<boolean> {
  const response = await send('POST', '/auth/check-email', { body: { email }, signal });
  if (!response.ok) throw new Error(`POST /auth/check-email answered ${response.status}`);
  const body = (await readJson(response)) as { eligible?: unknown } | null;
  return body?.eligible === true;
}

export interface Registration {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
}

/** Registers; the solved captcha travels as captchaValue. */
export async function register(registration: Registration, captchaValue: string): Promise<void> {
  let response: Response;
  try {
    response = await postJson('/auth/register', { ...registration, captchaValue });
  } catch {
    throw new AccessError(REGISTER_MESSAGES.failed);
  }
  if (response.ok) return;
  if (response.status === 429) throw await tooManyRequests(response, REGISTER_MESSAGES.failed);
  const message = firstErrorMessage(await readJson(response));
  // The captcha's own failure has its own text (docs/product.md#5-validation-rules), as has a throttled one
  // (when to try again); every other failure is 'Registration failed'.
  throw new AccessError(
    message === CAPTCHA_MESSAGES.failed ? CAPTCHA_MESSAGES.failed : REGISTER_MESSAGES.failed,
  );
}

/** Confirms the email behind a confirmation link; true only for { success: true }. */
export async function confirmRegistration(token: string): Promise<boolean> {
  try {
    const response = await postJson('/auth/confirm-registration', { token });
    const body = (await readJson(response)) as { success?: unknown } | null;
    return response.ok && body?.success === true;
  } catch {
    return false;
  }
}

/** Asks for a reset link; the solved captcha travels as reCaptcha_token. */
export async function requestPasswordReset(email: string, captchaValue: string): Promise<void> {
  let response: Response;
  try {
    response = await postJson('/auth/request-password-reset', { email, reCaptcha_token: captchaValue });
  } catch {
    throw new AccessError(RESET_REQUEST_MESSAGES.failed);
  }
  if (response.status === 429) throw await tooManyRequests(response, RESET_REQUEST_MESSAGES.failed);
  const body = (await readJson(response)) as { success?: unknown } | null;
  if (!response.ok || body?.success === false) throw new AccessError(RESET_REQUEST_MESSAGES.failed);
}

/** Sets a new password with the one-time token of a reset link. */
export async function resetPassword(token: string, password: string): Promise<void> {
  let response: Response;
  try {
    response = await postJson(`/auth/reset-password/${encodeURIComponent(token)}`, { password });
  } catch {
    throw new AccessError(RESET_MESSAGES.failed);
  }
  const body = (await readJson(response)) as { success?: unknown } | null;
  if (!response.ok || body?.success === false) throw new AccessError(RESET_MESSAGES.failed);
}
