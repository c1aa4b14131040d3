// The access calls of the landing page: POST /auth/login and POST /auth/register, with the spec's messages.
import type { AuthUser } from '@rotunda/session';

export const LOGIN_MESSAGES = {
  confirmEmail: 'Please confirm your email before logging in.',
  invalidCredentials: 'Invalid credentials, please try again',
  failed: 'An error occurred. Please try again later.',
} as const;

export const REGISTER_MESSAGES = {
  success: 'Registration successful! Please check your email to confirm your account.',
  junkFolder: 'If it does not arrive within a few minutes, please check your junk or spam folder.',
  failed: 'Registration failed',
} as const;

/** The server's wording for an unconfirmed account (spec §8). */
const UNCONFIRMED_EMAIL = 'Please confirm your email to log in';

/** A failure whose message is meant for the user. */
export class AccessError extends Error {}

async function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
}

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

function isAuthUser(value: unknown): value is AuthUser {
  const user = value as Partial<AuthUser> | null;
  return typeof user?.token === 'string' && typeof user.user_id === 'string';
}

/** Logs in; the answer carries the user with its token, either as the body or under `user`. */
export async function logIn(email: string, password: string): Promise<AuthUser> {
  let response: Response;
  try {
    response = await postJson('/auth/login', { email, password });
  } catch {
    throw new AccessError(LOGIN_MESSAGES.failed);
  }
  const body = await readJson(response);
  if (response.status === 401) {
    throw new AccessError(
      firstErrorMessage(body) === UNCONFIRMED_EMAIL
        ? LOGIN_MESSAGES.confirmEmail
        : LOGIN_MESSAGES.invalidCredentials,
    );
  }
  const user = (body as { user?: unknown } | null)?.user ?? body;
  if (!response.ok || !isAuthUser(user)) throw new AccessError(LOGIN_MESSAGES.failed);
  return user;
}

export interface Registration {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
}

export async function register(registration: Registration): Promise<void> {
  let response: Response;
  try {
    response = await postJson('/auth/register', registration);
  } catch {
    throw new AccessError(REGISTER_MESSAGES.failed);
  }
  if (!response.ok) throw new AccessError(REGISTER_MESSAGES.failed);
}
