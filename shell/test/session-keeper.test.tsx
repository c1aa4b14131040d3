// The session keeper: keycloak-js takes the stored tokens without redirecting, renewals keep the store in
// step, and when the identity provider's session ends (refused renewal, refresh token expiry, logout) the
// store is cleared and the member is sent to '/'.
import { sessionStore, setSession } from '@rotunda/session';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Keycloak, { type KeycloakInitOptions } from 'keycloak-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHECK_INTERVAL_MS,
  createSessionKeeper,
  type KeycloakLike,
  MIN_VALIDITY_SECONDS,
} from '../src/session/keeper';
import { APP_CONFIG, fakeJwt, inSeconds, makeMember, renderAt, routeFetch, storedAuth } from './support';

const tokens = (accessSeconds = 300, refreshSeconds = 1800) => ({
  token: fakeJwt({ exp: inSeconds(accessSeconds), iat: inSeconds(0), sid: 's1' }),
  refreshToken: fakeJwt({ exp: inSeconds(refreshSeconds), iat: inSeconds(0), sid: 's1' }),
});

const member = (token: string) => makeMember({ token });

type Answer = { token: string; refreshToken: string } | 'refused' | 'offline';
/** An answer, or one the test gives later (a renewal still in flight). */
type Renewal = Answer | Promise<Answer>;

/** A promise the test settles when it chooses, to put answers in a given order. */
function later<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** Behaves like keycloak-js for the calls the keeper makes; `renewals` answers each renewal in turn. */
class FakeKeycloak implements KeycloakLike {
  token?: string;
  refreshToken?: string;
  tokenParsed?: { exp?: number };
  refreshTokenParsed?: { exp?: number };
  timeSkew: number | null = null;
  onAuthLogout?: () => void;
  onAuthRefreshSuccess?: () => void;
  initOptions?: KeycloakInitOptions;
  renewCalls: number[] = [];

  private readonly renewals: Renewal[];

  constructor(renewals: Renewal[]) {
    this.renewals = renewals;
  }

  private set(token?: string, refreshToken?: string) {
    this.token = token;
    this.refreshToken = refreshToken;
    this.tokenParsed = token ? JSON.parse(atob(token.split('.')[1] ?? '')) : undefined;
    this.refreshTokenParsed = refreshToken ? JSON.parse(atob(refreshToken.split('.')[1] ?? '')) : undefined;
  }

  async init(options: KeycloakInitOptions) {
    this.initOptions = options;
    this.set(options.token, options.refreshToken);
    await this.updateToken(-1);
    return true;
  }

  async updateToken(minValidity: number) {
    this.renewCalls.push(minValidity);
    const renewal = await (this.renewals.shift() ?? 'offline');
    if (renewal === 'offline') throw new TypeError('Failed to fetch');
    if (renewal === 'refused') {
      this.clearToken();
      throw new Error('400 invalid_grant');
    }
    this.set(renewal.token, renewal.refreshToken);
    this.timeSkew = 0;
    this.onAuthRefreshSuccess?.();
    return true;
  }

  clearToken() {
    if (!this.token) return;
    this.set();
    this.onAuthLogout?.();
  }
}

function keeperWith(kc: FakeKeycloak, logoutRequest = vi.fn(async () => {})) {
  const createKeycloak = vi.fn(() => kc);
  const keeper = createSessionKeeper({
    store: sessionStore,
    identity: async () => APP_CONFIG.identity,
    createKeycloak,
    logoutRequest,
  });
  return { keeper, createKeycloak, logoutRequest };
}

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
});

describe('session keeper', () => {
  it('hands the stored tokens to keycloak-js without redirects and keeps renewed tokens in step', async () => {
    const first = tokens();
    const renewed = tokens(300, 1800);
    const kc = new FakeKeycloak([renewed]);
    const { keeper, createKeycloak } = keeperWith(kc);
    setSession(member(first.token), first.refreshToken);
    stop = keeper.start();

    await waitFor(() => expect(sessionStore.getState().token).toBe(renewed.token));
    expect(createKeycloak).toHaveBeenCalledWith(APP_CONFIG.identity);
    expect(kc.initOptions).toEqual({
      token: first.token,
      refreshToken: first.refreshToken,
      checkLoginIframe: false,
    });
    expect(storedAuth()).toMatchObject({
      isAuthenticated: true,
      token: renewed.token,
      refreshToken: renewed.refreshToken,
      user: { token: renewed.token },
    });
  });

  it('ends the session when the identity provider refuses the renewal: store cleared, member sent to /', async () => {
    const first = tokens();
    const { keeper } = keeperWith(new FakeKeycloak(['refused']));
    setSession(member(first.token), first.refreshToken);
    renderAt('/public-square');
    expect(await screen.findByRole('heading', { name: 'mf_feed/PublicSquare' })).toBeTruthy();

    act(() => {
      stop = keeper.start();
    });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(storedAuth()).toEqual({
      token: null,
      refreshToken: null,
      isAuthenticated: false,
      loading: false,
      user: null,
    });
    expect(screen.getByRole('button', { name: 'Register Today!' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('ends a stored session whose refresh token expired while the page was closed, before asking anyone', () => {
    const stale = tokens(-600, -60);
    const { keeper, createKeycloak } = keeperWith(new FakeKeycloak([]));
    setSession(member(stale.token), stale.refreshToken);
    stop = keeper.start();
    expect(sessionStore.getState().isAuthenticated).toBe(false);
    expect(storedAuth().isAuthenticated).toBe(false);
    expect(createKeycloak).not.toHaveBeenCalled();
  });

  it('ends the session at the refresh token’s expiry (the identity provider’s session end)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const first = tokens(20, 45);
    const kc = new FakeKeycloak([tokens(20, 45)]);
    const { keeper } = keeperWith(kc);
    setSession(member(first.token), first.refreshToken);
    renderAt('/directory');
    await act(async () => {
      stop = keeper.start();
    });
    expect(sessionStore.getState().isAuthenticated).toBe(true);

    await act(async () => vi.advanceTimersByTime(44_000));
    expect(sessionStore.getState().isAuthenticated).toBe(true);
    // Nobody used the page, so nothing renewed the session: it ends on time.
    expect(kc.renewCalls).toEqual([-1]);
    await act(async () => vi.advanceTimersByTime(2_000));
    expect(sessionStore.getState().isAuthenticated).toBe(false);
    expect(screen.getByTestId('location').textContent).toBe('/');
  });

  it('renews only while the member is active', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const first = tokens();
    const kc = new FakeKeycloak([tokens(), tokens(), tokens()]);
    const { keeper } = keeperWith(kc);
    setSession(member(first.token), first.refreshToken);
    await act(async () => {
      stop = keeper.start();
    });
    expect(kc.renewCalls).toEqual([-1]);

    await act(async () => vi.advanceTimersByTime(3 * CHECK_INTERVAL_MS));
    expect(kc.renewCalls).toEqual([-1]);

    window.dispatchEvent(new Event('keydown'));
    await act(async () => vi.advanceTimersByTime(CHECK_INTERVAL_MS));
    expect(kc.renewCalls).toEqual([-1, MIN_VALIDITY_SECONDS]);
  });

  it('keeps the session through a failed renewal that is not a refusal (offline)', async () => {
    const first = tokens();
    const { keeper } = keeperWith(new FakeKeycloak(['offline']));
    setSession(member(first.token), first.refreshToken);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    stop = keeper.start();
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(sessionStore.getState().isAuthenticated).toBe(true);
    warn.mockRestore();
  });

  it('takes over the session with keycloak-js loaded on demand (an async createKeycloak)', async () => {
    const first = tokens();
    const renewed = tokens();
    const kc = new FakeKeycloak([renewed]);
    stop = createSessionKeeper({
      store: sessionStore,
      identity: async () => APP_CONFIG.identity,
      createKeycloak: async () => kc,
      logoutRequest: async () => {},
    }).start();
    setSession(member(first.token), first.refreshToken);
    await waitFor(() => expect(sessionStore.getState().token).toBe(renewed.token));
  });

  it('keeps the session until its end when keycloak-js cannot be loaded, and then ends it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const first = tokens(20, 45);
    setSession(member(first.token), first.refreshToken);
    await act(async () => {
      stop = createSessionKeeper({
        store: sessionStore,
        identity: async () => APP_CONFIG.identity,
        createKeycloak: async () => {
          throw new TypeError('Failed to fetch dynamically imported module');
        },
        logoutRequest: async () => {},
      }).start();
    });
    expect(warn).toHaveBeenCalledWith(
      'Cannot renew the session: keycloak-js could not be loaded',
      expect.any(TypeError),
    );
    expect(sessionStore.getState().isAuthenticated).toBe(true);
    await act(async () => vi.advanceTimersByTime(46_000));
    expect(sessionStore.getState().isAuthenticated).toBe(false);
    warn.mockRestore();
  });

  it('logs out: keycloak-js forgets the tokens, the store is cleared, and POST /auth/logout gets the refresh token', async () => {
    const first = tokens();
    const renewed = tokens();
    const kc = new FakeKeycloak([renewed]);
    const clearToken = vi.spyOn(kc, 'clearToken');
    const { keeper, logoutRequest } = keeperWith(kc);
    setSession(member(first.token), first.refreshToken);
    stop = keeper.start();
    await waitFor(() => expect(sessionStore.getState().token).toBe(renewed.token));

    await keeper.logout();
    expect(logoutRequest).toHaveBeenCalledWith(renewed.refreshToken, renewed.token);
    expect(clearToken).toHaveBeenCalled();
    expect(kc.token).toBeUndefined();
    expect(storedAuth().isAuthenticated).toBe(false);
  });
});

describe('a logout racing a renewal', () => {
  it('the renewal answered during the logout neither stores its tokens nor brings the session back', async () => {
    const first = tokens();
    const renewed = tokens();
    const late = tokens();
    const inFlight = later<Answer>();
    const serverLogout = later<void>();
    const kc = new FakeKeycloak([renewed, inFlight.promise]);
    const { keeper, logoutRequest } = keeperWith(
      kc,
      vi.fn(() => serverLogout.promise),
    );
    setSession(member(first.token), first.refreshToken);
    renderAt('/directory');
    act(() => {
      stop = keeper.start();
    });
    await waitFor(() => expect(sessionStore.getState().token).toBe(renewed.token));
    const seen: (string | null)[] = [];
    const unsubscribe = sessionStore.subscribe((state) => seen.push(state.token, state.refreshToken));

    const renewing = keeper.renew();
    await waitFor(() => expect(kc.renewCalls).toHaveLength(2));
    let loggingOut: Promise<void> | undefined;
    act(() => {
      loggingOut = keeper.logout();
    });
    // The renewal sent before the logout is answered while the logout is on its way to the server…
    await act(async () => {
      inFlight.resolve(late);
      await renewing;
    });
    // …and then the logout.
    await act(async () => {
      serverLogout.resolve();
      await loggingOut;
    });
    unsubscribe();

    expect(logoutRequest).toHaveBeenCalledWith(renewed.refreshToken, renewed.token);
    expect(seen).not.toContain(late.token);
    expect(seen).not.toContain(late.refreshToken);
    expect(storedAuth()).toEqual({
      token: null,
      refreshToken: null,
      isAuthenticated: false,
      loading: false,
      user: null,
    });
    expect(screen.getByTestId('location').textContent).toBe('/');
  });

  it('a renewal answered after the server refused another one leaves the tab signed out on /', async () => {
    const first = tokens();
    const late = tokens();
    const refused = later<Answer>();
    const inFlight = later<Answer>();
    const kc = new FakeKeycloak([refused.promise, inFlight.promise]);
    const { keeper } = keeperWith(kc);
    setSession(member(first.token), first.refreshToken);
    renderAt('/directory');
    act(() => {
      stop = keeper.start();
    });
    await waitFor(() => expect(kc.renewCalls).toEqual([-1]));
    // Without Web Locks (or past a stalled lock) a second renewal goes out while the first is unanswered.
    const renewing = keeper.renew();
    await waitFor(() => expect(kc.renewCalls).toEqual([-1, MIN_VALIDITY_SECONDS]));
    const seen: (string | null)[] = [];
    const unsubscribe = sessionStore.subscribe((state) => seen.push(state.token, state.refreshToken));

    await act(async () => refused.resolve('refused'));
    await waitFor(() => expect(sessionStore.getState().isAuthenticated).toBe(false));
    await act(async () => {
      inFlight.resolve(late);
      await renewing;
    });
    unsubscribe();

    expect(seen).not.toContain(late.token);
    expect(storedAuth()).toMatchObject({ isAuthenticated: false, token: null, refreshToken: null });
    expect(screen.getByTestId('location').textContent).toBe('/');
  });
});

describe('the logout icon', () => {
  it('posts the refresh token to /auth/logout and returns to /', async () => {
    const { sent } = routeFetch({ 'POST /auth/logout': new Response(null, { status: 204 }) });
    const first = tokens();
    setSession(member(first.token), first.refreshToken);
    renderAt('/directory');
    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    const logout = sent.find((r) => r.path === '/auth/logout');
    expect(logout?.body).toEqual({ refreshToken: first.refreshToken });
    expect(logout?.headers.get('x-auth-token')).toBe(first.token);
    expect(storedAuth().isAuthenticated).toBe(false);
  });
});

describe('keycloak-js itself', () => {
  const identity = APP_CONFIG.identity;
  const tokenUrl = `${identity.url}/realms/${identity.realm}/protocol/openid-connect/token`;

  it('takes given tokens, renews them at the token endpoint and stays on the page', async () => {
    const first = tokens();
    const renewed = tokens();
    const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
      expect(url).toBe(tokenUrl);
      expect(Object.fromEntries(init.body as URLSearchParams)).toEqual({
        grant_type: 'refresh_token',
        refresh_token: first.refreshToken,
        client_id: identity.clientId,
      });
      return Response.json({
        access_token: renewed.token,
        refresh_token: renewed.refreshToken,
        expires_in: 300,
        refresh_expires_in: 1800,
        token_type: 'Bearer',
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    const before = window.location.href;
    const kc = new Keycloak(identity);
    await expect(
      kc.init({ token: first.token, refreshToken: first.refreshToken, checkLoginIframe: false }),
    ).resolves.toBe(true);
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(kc.token).toBe(renewed.token);
    expect(kc.refreshToken).toBe(renewed.refreshToken);
    expect(window.location.href).toBe(before);
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('forgets the tokens and fires onAuthLogout when the token endpoint answers 400 (session ended)', async () => {
    const first = tokens();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ error: 'invalid_grant' }, { status: 400 })),
    );
    const kc = new Keycloak(identity);
    const onAuthLogout = vi.fn();
    kc.onAuthLogout = onAuthLogout;
    await expect(
      kc.init({ token: first.token, refreshToken: first.refreshToken, checkLoginIframe: false }),
    ).rejects.toThrow();
    expect(onAuthLogout).toHaveBeenCalledOnce();
    expect(kc.token).toBeUndefined();
    expect(kc.authenticated).toBe(false);
  });
});
