// The session keeper across tabs: refresh tokens rotate and a reused one ends the session, so two tabs of one
// browser renew one at a time (a Web Lock) and the second takes the first's tokens instead of spending the old
// refresh token again; a tab learns of another's renewal or sign-out from the shared storage, even before its
// 'storage' event arrives. The token endpoint here rotates and refuses reuse as the identity providers do.
import { AUTH_STORAGE_KEY, createSessionStore, sessionStore, setSession } from '@rotunda/session';
import type { KeycloakInitOptions } from 'keycloak-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createSessionKeeper,
  type KeycloakLike,
  RENEWAL_LOCK,
  type RenewalLocks,
} from '../src/session/keeper';
import { APP_CONFIG, fakeJwt, inSeconds, makeMember } from './support';

/** The identity provider's token endpoint: each refresh token renews once; a spent one ends the session. */
class TokenServer {
  /** Renewals asked for, answered or not yet. */
  asked = 0;
  renewals = 0;
  refusals = 0;
  private serial = 0;
  private live = new Set<string>();
  private ended = false;
  private held: Promise<void> | null = null;

  /** Keeps every answer back until the function it returns is called. */
  holdAnswers(): () => void {
    let release = () => {};
    this.held = new Promise<void>((resolve) => {
      release = resolve;
    });
    return () => {
      this.held = null;
      release();
    };
  }

  issue(accessSeconds: number) {
    this.serial += 1;
    const claims = { iat: inSeconds(0), sid: 's1', n: this.serial };
    const pair = {
      token: fakeJwt({ ...claims, exp: inSeconds(accessSeconds) }),
      refreshToken: fakeJwt({ ...claims, exp: inSeconds(1800), typ: 'Refresh' }),
    };
    this.live.add(pair.refreshToken);
    return pair;
  }

  async refresh(refreshToken: string) {
    this.asked += 1;
    // The answer takes a moment, during which another tab may ask too.
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (this.held) await this.held;
    if (this.ended || !this.live.delete(refreshToken)) {
      this.ended = true;
      this.refusals += 1;
      return 'refused' as const;
    }
    this.renewals += 1;
    return this.issue(300);
  }
}

/** keycloak-js as the keeper uses it: init with tokens renews at once; updateToken renews only when due. */
class TabKeycloak implements KeycloakLike {
  token?: string;
  refreshToken?: string;
  tokenParsed?: { exp?: number };
  refreshTokenParsed?: { exp?: number };
  timeSkew: number | null = null;
  onAuthLogout?: () => void;
  onAuthRefreshSuccess?: () => void;

  private readonly server: TokenServer;

  constructor(server: TokenServer) {
    this.server = server;
  }

  private set(token?: string, refreshToken?: string) {
    this.token = token;
    this.refreshToken = refreshToken;
    this.tokenParsed = token ? JSON.parse(atob(token.split('.')[1] ?? '')) : undefined;
    this.refreshTokenParsed = refreshToken ? JSON.parse(atob(refreshToken.split('.')[1] ?? '')) : undefined;
  }

  async init(options: KeycloakInitOptions) {
    if (!options.token || !options.refreshToken) return false;
    this.set(options.token, options.refreshToken);
    await this.updateToken(-1);
    return true;
  }

  async updateToken(minValidity: number) {
    if (!this.refreshToken) throw new Error('Unable to update token, no refresh token available.');
    const exp = this.tokenParsed?.exp ?? 0;
    const due =
      minValidity === -1 || this.timeSkew === null || exp - inSeconds(0) + this.timeSkew < minValidity;
    if (!due) return false;
    const answer = await this.server.refresh(this.refreshToken);
    if (answer === 'refused') {
      this.clearToken();
      throw new Error('400 invalid_grant');
    }
    this.set(answer.token, answer.refreshToken);
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

/** Web Locks as one browser grants them to its tabs: one holder of a name at a time, in the order asked. */
class BrowserLocks implements RenewalLocks {
  readonly taken: string[] = [];
  private tails = new Map<string, Promise<unknown>>();

  request<T>(name: string, callback: () => Promise<T>): Promise<T> {
    const granted = (this.tails.get(name) ?? Promise.resolve()).then(() => {
      this.taken.push(name);
      return callback();
    });
    this.tails.set(
      name,
      granted.catch(() => {}),
    );
    return granted;
  }
}

/** A tab: its own session store over the shared localStorage, its own keeper and keycloak-js. */
function openTab(server: TokenServer, locks: RenewalLocks | null, store = createSessionStore(localStorage)) {
  const kc = new TabKeycloak(server);
  const keeper = createSessionKeeper({
    store,
    identity: async () => APP_CONFIG.identity,
    createKeycloak: () => kc,
    logoutRequest: async () => {},
    locks,
  });
  const stop = keeper.start();
  stops.push(stop);
  return { store, kc, keeper };
}

/** Both tabs' keycloak-js hold the same live tokens. */
async function bothTakenOver(one: { kc: TabKeycloak }, two: { kc: TabKeycloak }) {
  await vi.waitFor(() => {
    expect(one.kc.refreshToken).toBeDefined();
    expect(two.kc.refreshToken).toBe(one.kc.refreshToken);
  });
}

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe('two tabs of one browser', () => {
  it('opened at once renew once: the second takes the first tab’s tokens instead of reusing the spent ones', async () => {
    const server = new TokenServer();
    const locks = new BrowserLocks();
    const first = server.issue(300);
    setSession(makeMember({ token: first.token }), first.refreshToken);

    const one = openTab(server, locks);
    const two = openTab(server, locks);
    await vi.waitFor(() => expect(locks.taken).toHaveLength(2));
    await bothTakenOver(one, two);

    expect(server.renewals).toBe(1);
    expect(server.refusals).toBe(0);
    expect(one.kc.refreshToken).not.toBe(first.refreshToken);
    for (const tab of [one, two]) {
      expect(tab.store.getState()).toMatchObject({
        isAuthenticated: true,
        refreshToken: one.kc.refreshToken,
      });
      expect(tab.store.getState().user?.token).toBe(one.kc.token);
    }
  });

  it('renewing an expiring token at the same moment spend its refresh token once, and both stay signed in', async () => {
    const server = new TokenServer();
    const locks = new BrowserLocks();
    const first = server.issue(300);
    setSession(makeMember({ token: first.token }), first.refreshToken);
    const one = openTab(server, locks);
    const two = openTab(server, locks);
    await bothTakenOver(one, two);
    expect(server.renewals).toBe(1);

    // Both tabs hold an access token about to expire, as after a pause, and the member acts in both.
    const expiring = server.issue(10);
    one.store.getState().setTokens(expiring.token, expiring.refreshToken);
    for (const tab of [one, two]) {
      tab.kc.token = expiring.token;
      tab.kc.tokenParsed = JSON.parse(atob(expiring.token.split('.')[1] ?? ''));
      tab.kc.refreshToken = expiring.refreshToken;
    }
    await Promise.all([one.keeper.renew(), two.keeper.renew()]);

    expect(server.renewals).toBe(2);
    expect(server.refusals).toBe(0);
    expect(two.kc.refreshToken).toBe(one.kc.refreshToken);
    expect(two.kc.refreshToken).not.toBe(expiring.refreshToken);
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? '{}')).toMatchObject({
      isAuthenticated: true,
      refreshToken: one.kc.refreshToken,
    });
    expect(two.store.getState().isAuthenticated).toBe(true);
  });

  it('a tab about to renew after a sign-out in another tab ends its session instead, before its storage event', async () => {
    const server = new TokenServer();
    const locks = new BrowserLocks();
    const first = server.issue(10);
    setSession(makeMember({ token: first.token }), first.refreshToken);
    const one = openTab(server, locks);
    const two = openTab(server, locks);
    await bothTakenOver(one, two);

    // Tab one signs out; tab two's store has not heard yet (its 'storage' event is still to come).
    one.store.getState().clearSession();
    expect(two.store.getState().isAuthenticated).toBe(true);
    await two.keeper.renew();

    expect(two.store.getState().isAuthenticated).toBe(false);
    expect(server.renewals).toBe(1);
    expect(server.refusals).toBe(0);
  });

  it('a sign-out in another tab while this tab renews wins: the renewed tokens are not written back', async () => {
    const server = new TokenServer();
    const first = server.issue(300);
    setSession(makeMember({ token: first.token }), first.refreshToken);
    const answer = server.holdAnswers();
    const tab = openTab(server, new BrowserLocks());
    // The tab's renewal has reached the server, which has not answered yet, when another tab signs out.
    await vi.waitFor(() => expect(server.asked).toBe(1));
    localStorage.setItem(
      AUTH_STORAGE_KEY,
      JSON.stringify({ token: null, refreshToken: null, isAuthenticated: false, loading: false, user: null }),
    );
    answer();
    await vi.waitFor(() => expect(server.renewals).toBe(1));

    await vi.waitFor(() => expect(tab.store.getState().isAuthenticated).toBe(false));
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? '{}')).toMatchObject({
      isAuthenticated: false,
    });
  });

  it('hears of another tab’s renewal and sign-out through the storage event', async () => {
    const server = new TokenServer();
    const first = server.issue(300);
    setSession(makeMember({ token: first.token }), first.refreshToken);
    const tab = openTab(server, new BrowserLocks(), sessionStore);
    await vi.waitFor(() => expect(server.renewals).toBe(1));

    // Another tab renews: it writes the shared storage, and this window is told.
    const elsewhere = await server.refresh(tab.kc.refreshToken ?? '');
    if (elsewhere === 'refused') throw new Error('the other tab’s renewal was refused');
    const stored = JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? '{}');
    localStorage.setItem(
      AUTH_STORAGE_KEY,
      JSON.stringify({
        ...stored,
        token: elsewhere.token,
        refreshToken: elsewhere.refreshToken,
        user: { ...stored.user, token: elsewhere.token },
      }),
    );
    window.dispatchEvent(new StorageEvent('storage', { key: AUTH_STORAGE_KEY }));
    expect(tab.kc.refreshToken).toBe(elsewhere.refreshToken);
    expect(sessionStore.getState().token).toBe(elsewhere.token);

    // Then signs out.
    localStorage.setItem(
      AUTH_STORAGE_KEY,
      JSON.stringify({ token: null, refreshToken: null, isAuthenticated: false, loading: false, user: null }),
    );
    window.dispatchEvent(new StorageEvent('storage', { key: AUTH_STORAGE_KEY }));
    expect(sessionStore.getState().isAuthenticated).toBe(false);
    await tab.keeper.renew();
    expect(server.renewals).toBe(2);
    expect(server.refusals).toBe(0);
  });

  it('without Web Locks (an old browser, a page not served securely), a tab still renews on its own', async () => {
    const server = new TokenServer();
    const first = server.issue(300);
    setSession(makeMember({ token: first.token }), first.refreshToken);
    const tab = openTab(server, null);
    await vi.waitFor(() => expect(tab.store.getState().refreshToken).not.toBe(first.refreshToken));
    expect(server.renewals).toBe(1);
    expect(tab.store.getState().isAuthenticated).toBe(true);
  });

  it('takes the one lock every tab of the site shares', async () => {
    const server = new TokenServer();
    const locks = new BrowserLocks();
    const first = server.issue(300);
    setSession(makeMember({ token: first.token }), first.refreshToken);
    openTab(server, locks);
    await vi.waitFor(() => expect(server.renewals).toBe(1));
    expect(locks.taken).toEqual([RENEWAL_LOCK]);
  });
});
