// Test helper: a signed-in member for API calls that outlive one access token. It logs in once and renews the
// access token with the refresh token at the built-in provider's token endpoint (as the shell does), so a
// suite can run for minutes with short tokens (CI sets AUTH_ACCESS_TOKEN_SECONDS=20) and still make one login
// per role: logins from one address are rate-limited. Refresh tokens rotate, so the newest one is always kept.
//
// The session renews through a request context of its own: the `request` it is made with may be a hook's
// fixture (a beforeAll's), disposed when the hook ends while the session is used for minutes more.
import { type APIRequestContext, expect, request as requests } from '@playwright/test';
import { baseURL } from '../../playwright.config.ts';

interface SessionUser {
  user_id: string;
  profile_id: number | null;
  first_name: string;
  last_name: string;
  email: string;
  contributor: boolean;
}

/** Renew this long before the access token expires, so a request in flight never carries an expired one. */
const RENEW_MARGIN_MS = 8_000;

export class ApiSession {
  readonly user: SessionUser;
  private accessToken: string;
  private refreshToken: string;
  private expiresAt: number;
  private renewing: Promise<void> | undefined;

  /** Owned by the session, alive as long as the test worker. */
  private readonly request: APIRequestContext;
  private readonly identity: Identity;

  private constructor(request: APIRequestContext, identity: Identity, answer: LoginAnswer) {
    this.request = request;
    this.identity = identity;
    this.user = answer.user;
    this.accessToken = answer.token;
    this.refreshToken = answer.refreshToken;
    this.expiresAt = Date.now() + answer.expiresIn * 1000;
  }

  /**
   * Logs in through POST /auth/login (one login) and keeps the session alive from then on. `request` is the
   * caller's context, used for the login only; renewals go through the session's own.
   */
  static async logIn(
    request: APIRequestContext,
    account: { email: string; password: string },
  ): Promise<ApiSession> {
    const response = await request.post('/auth/login', {
      data: { email: account.email, password: account.password },
    });
    expect(response.status(), `login of ${account.email}: ${await response.text()}`).toBe(200);
    const own = await requests.newContext({ baseURL });
    return new ApiSession(own, await identityOf(own), (await response.json()) as LoginAnswer);
  }

  /** A valid access token, renewed first when it is about to expire. */
  async token(): Promise<string> {
    if (Date.now() < this.expiresAt - RENEW_MARGIN_MS) return this.accessToken;
    this.renewing ??= this.renew().finally(() => {
      this.renewing = undefined;
    });
    await this.renewing;
    return this.accessToken;
  }

  /** The header that makes a call this member's. */
  async headers(): Promise<Record<string, string>> {
    return { 'x-auth-token': await this.token() };
  }

  private async renew(): Promise<void> {
    const response = await this.request.post(`/realms/${this.identity.realm}/protocol/openid-connect/token`, {
      form: {
        grant_type: 'refresh_token',
        refresh_token: this.refreshToken,
        client_id: this.identity.clientId,
      },
    });
    expect(response.status(), `token renewal for ${this.user.email}: ${await response.text()}`).toBe(200);
    const tokens = (await response.json()) as {
      access_token: string;
      refresh_token: string;
      expires_in: number;
    };
    this.accessToken = tokens.access_token;
    this.refreshToken = tokens.refresh_token;
    this.expiresAt = Date.now() + tokens.expires_in * 1000;
  }
}

interface LoginAnswer {
  token: string;
  refreshToken: string;
  expiresIn: number;
  user: SessionUser;
}

interface Identity {
  realm: string;
  clientId: string;
}

/** The identity realm and client the browser is told to use (GET /app-config.json). */
async function identityOf(request: APIRequestContext): Promise<Identity> {
  const response = await request.get('/app-config.json');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { identity: Identity }).identity;
}
