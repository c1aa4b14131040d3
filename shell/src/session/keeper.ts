// The session keeper: keycloak-js owns the member's token lifecycle (ADR 0036, ADR 0040). After login, and
// after a page reload, it hands the stored tokens to keycloak-js, renews the access token silently while the
// member is active, keeps the store's token (and user.token) in step, and ends the session when the identity
// provider's session ends: the refresh token expires or is refused (docs/product.md#4-states-and-transitions,
// ADR 0036), or on logout. Ending clears the store; the layout sees the member signed out and sends them to
// '/'.
//
// Refresh tokens rotate and a reused one ends the session, so the tabs of one browser renew one at a time: each
// renewal holds a Web Lock shared by every tab, and once it has the lock re-reads the stored tokens. When another
// tab renewed meanwhile, it takes those tokens instead of renewing with the spent ones (ADR 0040).
import {
  type AuthState,
  readStoredSession,
  registerTokenRefresher,
  type SessionStore,
} from '@rotunda/session';
import type { KeycloakInitOptions } from 'keycloak-js';
import type { StoreApi } from 'zustand';
import type { IdentityConfig } from '../config';
import { jwtClaims, jwtExpiry } from './jwt';

/** The part of a keycloak-js instance the keeper uses (tests pass a fake). */
export interface KeycloakLike {
  token?: string;
  refreshToken?: string;
  tokenParsed?: { exp?: number };
  refreshTokenParsed?: { exp?: number };
  timeSkew: number | null;
  init(options: KeycloakInitOptions): Promise<boolean>;
  updateToken(minValidity: number): Promise<boolean>;
  clearToken(): void;
  onAuthLogout?: () => void;
  onAuthRefreshSuccess?: () => void;
}

export interface KeeperDependencies {
  store: StoreApi<SessionStore>;
  /** Where the identity provider answers (from /app-config.json). */
  identity: () => Promise<IdentityConfig>;
  /** Answers a promise when keycloak-js is loaded on demand. */
  createKeycloak: (config: IdentityConfig) => KeycloakLike | Promise<KeycloakLike>;
  /** Ends the session on the server (POST /auth/logout). */
  logoutRequest: (refreshToken: string, token: string | null) => Promise<void>;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
  /** The session as persisted now, shared by every tab (default: localStorage's 'auth'). */
  stored?: () => AuthState;
  /**
   * The browser's lock manager, shared by its tabs (default: navigator.locks). Missing (an old browser, a page
   * not served over https or from localhost), each tab renews on its own, as before the lock.
   */
  locks?: RenewalLocks | null;
}

/** The part of the Web Locks API (navigator.locks) the keeper uses. */
export interface RenewalLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export interface SessionKeeper {
  /** Starts watching the store (sign-ins, renewals and sign-outs in any tab) and resumes a stored session. */
  start: () => () => void;
  /** Ends the session here, then on the server (with the tokens it had). */
  logout: () => Promise<void>;
  /** Renews the access token when it expires within the next 30 seconds. */
  renew: () => Promise<void>;
}

/** Renew when the access token has less than this left (keycloak-js updateToken's minValidity). */
export const MIN_VALIDITY_SECONDS = 30;
/** How often the keeper checks whether an active member's token needs renewing. */
export const CHECK_INTERVAL_MS = 10_000;
/** Activity renews a nearly expired token at once, but not more often than this. */
const ACTIVITY_RENEW_GAP_MS = 5_000;
/** setTimeout's longest delay; longer sessions re-arm the timer. */
const MAX_TIMER_MS = 2_147_483_647;
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
/** The Web Lock every tab of the site takes to renew. */
export const RENEWAL_LOCK = 'rotunda-session-renewal';
/** A renewal stalled longer than this (a dead network) stops holding the other tabs' renewals. */
export const RENEWAL_LOCK_HOLD_MS = 20_000;

export function createSessionKeeper(deps: KeeperDependencies): SessionKeeper {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  const stored = deps.stored ?? (() => readStoredSession());
  const locks = deps.locks === undefined ? (globalThis.navigator?.locks ?? null) : deps.locks;
  let kc: KeycloakLike | null = null;
  /** Bumped whenever the current session is dropped, so late answers about an older one are ignored. */
  let generation = 0;
  let endTimer: ReturnType<typeof setTimeout> | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  /** The member did something since the access token was last renewed. */
  let activeSinceRenewal = false;
  let lastActivityRenewal = 0;

  /** keycloak-js' estimate of (local clock − server clock), in seconds; 0 until it has one. */
  const skewOf = (instance: KeycloakLike | null) => instance?.timeSkew ?? 0;

  /** When the identity provider's session ends, in local milliseconds: the refresh token's expiry. */
  function sessionEndsAt(): number | null {
    const { token, refreshToken } = store.getState();
    // Without a refresh token nothing can renew the access token: the session ends with it
    // (docs/product.md#4-states-and-transitions).
    const exp =
      kc?.refreshTokenParsed?.exp ??
      (refreshToken ? jwtExpiry(refreshToken) : token ? jwtExpiry(token) : null);
    return exp === null || exp === undefined ? null : (exp + skewOf(kc)) * 1000;
  }

  function scheduleEnd() {
    clearTimeout(endTimer);
    const endsAt = sessionEndsAt();
    if (endsAt === null) return;
    const delay = endsAt - now();
    if (delay <= 0) {
      end();
      return;
    }
    endTimer = setTimeout(
      () => {
        // A renewal in another tab may have moved the end; scheduleEnd ends the session only if it is due.
        scheduleEnd();
      },
      Math.min(delay, MAX_TIMER_MS),
    );
  }

  /** Forgets the running session without touching the store (it was cleared, or is being replaced). */
  function drop() {
    generation += 1;
    kc = null;
    clearTimeout(endTimer);
    clearInterval(ticker);
    endTimer = undefined;
    ticker = undefined;
  }

  /** The session is over: keycloak-js forgets its tokens and the store is cleared. */
  function end() {
    const instance = kc;
    drop();
    if (instance?.token) instance.clearToken();
    if (store.getState().isAuthenticated) store.getState().clearSession();
  }

  /** Copies keycloak-js' renewed tokens into the store (token and user.token in step). */
  function keep(instance: KeycloakLike) {
    activeSinceRenewal = false;
    // Signed out in another tab (or the stored session cleared) while this renewal was under way: the sign-out
    // wins, and the renewed tokens are not written back.
    if (!stored().isAuthenticated) {
      end();
      return;
    }
    if (instance.token) store.getState().setTokens(instance.token, instance.refreshToken ?? null);
    scheduleEnd();
  }

  /** Runs `work` while no other tab of this browser renews; without Web Locks, at once. */
  async function oneTabAtATime(work: () => Promise<void>): Promise<void> {
    if (!locks) return work();
    let done: Promise<void> = Promise.resolve();
    await locks.request(RENEWAL_LOCK, () => {
      done = work();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, RENEWAL_LOCK_HOLD_MS);
      });
      return Promise.race([done.catch(() => {}), stalled]).finally(() => clearTimeout(timer));
    });
    return done;
  }

  /**
   * Under the lock, before renewing: what the other tabs did meanwhile. Answers false when the session is no
   * longer this one's to renew (signed out or switched in another tab); takes the stored tokens when another
   * tab renewed.
   */
  function catchUp(instance: KeycloakLike): boolean {
    const latest = stored();
    const state = store.getState();
    if (!latest.isAuthenticated) {
      // Signed out in another tab whose 'storage' event has not reached this one yet.
      if (kc === instance) end();
      return false;
    }
    if (latest.user?.user_id !== state.user?.user_id) return false;
    if (latest.token && latest.refreshToken && latest.refreshToken !== instance.refreshToken) {
      adopt(latest.token, latest.refreshToken);
      if (state.refreshToken !== latest.refreshToken) state.setTokens(latest.token, latest.refreshToken);
    }
    return true;
  }

  async function renew(minValidity = MIN_VALIDITY_SECONDS) {
    const instance = kc;
    if (!instance) return;
    try {
      await oneTabAtATime(async () => {
        // After another tab's renewal the adopted token is fresh, and updateToken leaves it as it is.
        if (kc === instance && catchUp(instance)) await instance.updateToken(minValidity);
      });
    } catch (error) {
      // A refused renewal (400: the session ended or was revoked) has already ended the session through
      // onAuthLogout; anything else (offline, 5xx) is retried on the next check.
      if (kc === instance) console.warn('Could not renew the session; will retry', error);
    }
  }

  function expiresSoon(instance: KeycloakLike) {
    const exp = instance.tokenParsed?.exp;
    return exp === undefined || (exp + skewOf(instance) - MIN_VALIDITY_SECONDS) * 1000 <= now();
  }

  const onActivity = () => {
    activeSinceRenewal = true;
    if (kc && expiresSoon(kc) && now() - lastActivityRenewal >= ACTIVITY_RENEW_GAP_MS) {
      lastActivityRenewal = now();
      void renew();
    }
  };

  const onVisible = () => {
    // Background tabs run timers late: on return, end a session that ran out meanwhile, or renew.
    if (document.visibilityState !== 'visible') return;
    scheduleEnd();
    onActivity();
  };

  /** Takes over the session in the store: after login, a reload, or a sign-in in another tab. */
  async function begin() {
    drop();
    const { isAuthenticated, token, refreshToken } = store.getState();
    if (!isAuthenticated || !token) return;
    const current = generation;
    const endsAt = sessionEndsAt();
    // An unreadable token, or a session that ran out while the page was closed, ends at once.
    if (endsAt === null || endsAt <= now()) {
      end();
      return;
    }
    scheduleEnd();
    if (!refreshToken) return;

    let identity: IdentityConfig;
    try {
      identity = await deps.identity();
    } catch (error) {
      // The session still ends on time through the timer; it just cannot be renewed from this page.
      console.warn('Cannot renew the session: the identity provider is not configured', error);
      return;
    }
    if (current !== generation) return;

    let instance: KeycloakLike;
    try {
      instance = await deps.createKeycloak(identity);
    } catch (error) {
      console.warn('Cannot renew the session: keycloak-js could not be loaded', error);
      return;
    }
    if (current !== generation) return;
    instance.onAuthLogout = () => {
      if (kc === instance) end();
    };
    instance.onAuthRefreshSuccess = () => {
      if (kc === instance) keep(instance);
    };
    kc = instance;
    activeSinceRenewal = false;
    ticker = setInterval(() => {
      if (kc && activeSinceRenewal) void renew();
    }, CHECK_INTERVAL_MS);
    try {
      await oneTabAtATime(async () => {
        if (kc !== instance) return;
        const latest = stored();
        if (!latest.isAuthenticated) {
          end();
          return;
        }
        if (
          latest.user?.user_id === store.getState().user?.user_id &&
          latest.token &&
          latest.refreshToken &&
          latest.refreshToken !== refreshToken
        ) {
          // Another tab renewed since this page read the tokens: they are alive, and the ones read are spent.
          await instance.init({ checkLoginIframe: false });
          if (kc !== instance) return;
          instance.timeSkew = clockSkew(latest.token);
          adopt(latest.token, latest.refreshToken);
          store.getState().setTokens(latest.token, latest.refreshToken);
          return;
        }
        // No onLoad and no login iframe: keycloak-js never redirects here. With both tokens given it takes
        // them and renews at once (updateToken(-1)), which also tells whether the session is still alive.
        await instance.init({ token, refreshToken, checkLoginIframe: false });
      });
    } catch (error) {
      if (kc === instance) console.warn('Could not renew the session yet; will retry', error);
    }
  }

  /**
   * keycloak-js' clock skew for a token just issued (another tab's renewal, moments ago), as it computes it
   * from its own renewals: local seconds minus the token's issue time.
   */
  function clockSkew(token: string): number {
    const issuedAt = jwtClaims(token)?.iat;
    return typeof issuedAt === 'number' ? Math.floor(now() / 1000) - issuedAt : 0;
  }

  /** Another tab renewed the tokens: keycloak-js here continues with them instead of the spent ones. */
  function adopt(token: string, refreshToken: string | null) {
    const instance = kc;
    if (!instance || !refreshToken || instance.refreshToken === refreshToken) return;
    const tokenClaims = jwtClaims(token);
    const refreshClaims = jwtClaims(refreshToken);
    if (!tokenClaims || !refreshClaims) return;
    instance.token = token;
    instance.tokenParsed = tokenClaims;
    instance.refreshToken = refreshToken;
    instance.refreshTokenParsed = refreshClaims;
    scheduleEnd();
  }

  function start() {
    const unsubscribe = store.subscribe((state, previous) => {
      if (!state.isAuthenticated) {
        if (previous.isAuthenticated) drop();
      } else if (!previous.isAuthenticated || state.user?.user_id !== previous.user?.user_id) {
        void begin();
      } else if (state.token && state.refreshToken !== previous.refreshToken) {
        adopt(state.token, state.refreshToken);
      }
    });
    const unregister = registerTokenRefresher(() => renew());
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, { passive: true });
    document.addEventListener('visibilitychange', onVisible);
    void begin();
    return () => {
      unsubscribe();
      unregister();
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity);
      document.removeEventListener('visibilitychange', onVisible);
      drop();
    };
  }

  async function logout() {
    const { token, refreshToken } = store.getState();
    // Signed out here first: a renewal still in flight (the logout click itself is activity that renews short
    // tokens) is then answered to a dropped session, and its tokens are neither kept nor written back.
    end();
    if (!refreshToken) return;
    try {
      await deps.logoutRequest(refreshToken, token);
    } catch (error) {
      // Signed out here regardless; the server session then ends on its own schedule.
      console.warn('Could not end the session on the server', error);
    }
  }

  return { start, logout, renew: () => renew() };
}
