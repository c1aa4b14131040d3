// The member's session: one zustand store shared as a singleton by the shell and every micro-frontend,
// persisted in localStorage under 'auth' with the spec's shape { token, isAuthenticated, loading, user }
// plus the refresh token (see AuthState.refreshToken for why).
import { createStore, useStore } from 'zustand';

/**
 * The signed-in user as the login answer describes it (docs/product.md#3-entities-and-their-fields, Auth
 * user).
 */
export interface AuthUser {
  token: string;
  user_id: string;
  /** The member's own profile, or null until they create or claim one. */
  profile_id: number | null;
  first_name: string;
  last_name: string;
  email: string;
  contributor: boolean;
  /** Holds the realm role 'admin' (access administration); absent from sessions stored before it existed. */
  admin?: boolean;
  email_confirmed: boolean;
}

/** What is persisted under the 'auth' key. */
export interface AuthState {
  token: string | null;
  /**
   * Not in the spec's list (token, isAuthenticated, loading, user): the session now lasts as long as the
   * identity provider's session, not one access token. The shell's session keeper (keycloak-js) needs the
   * refresh token to renew access tokens silently and, after a page reload, to resume the session or find
   * that it has ended; so it is persisted next to the access token, which it renews.
   */
  refreshToken: string | null;
  isAuthenticated: boolean;
  loading: boolean;
  user: AuthUser | null;
}

export interface SessionActions {
  /** Signs the user in: keeps the token, the refresh token and the user, as after a successful login. */
  setSession: (user: AuthUser, refreshToken?: string | null) => void;
  /** Keeps a renewed access token (and refresh token) in the store and in user.token, in step; signed out, nothing. */
  setTokens: (token: string, refreshToken: string | null) => void;
  /** Signs the user out and forgets everything about the session. */
  clearSession: () => void;
  /** Marks a login or session check as in progress, so screens can show a spinner. */
  setLoading: (loading: boolean) => void;
  /**
   * Records the member's own profile once they create or claim one, so everything reading the session (the
   * shell's guard, navigation and top bar) sees it at once; nothing happens when nobody is signed in.
   */
  setProfileId: (profileId: number) => void;
}

export type SessionStore = AuthState & SessionActions;

export const AUTH_STORAGE_KEY = 'auth';

const LOGGED_OUT: AuthState = {
  token: null,
  refreshToken: null,
  isAuthenticated: false,
  loading: false,
  user: null,
};

function isAuthUser(value: unknown): value is AuthUser {
  if (typeof value !== 'object' || value === null) return false;
  const user = value as Record<string, unknown>;
  return typeof user.token === 'string' && typeof user.user_id === 'string';
}

/**
 * A profile id as the session keeps it: a positive whole number, or null. Sessions stored before login
 * answered a number hold it as text ('12'), which still counts; anything else means no profile (profile
 * creation then finds the member's profile, if they have one, and records it again).
 */
export function profileIdOf(value: unknown): number | null {
  const id = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
}

const withProfileId = (user: AuthUser): AuthUser => ({ ...user, profile_id: profileIdOf(user.profile_id) });

/**
 * Reads the persisted state, falling back to logged out when it is missing, unreadable or hand-edited
 * into something inconsistent: a broken value must never leave a half-signed-in screen.
 */
function readPersisted(storage: Storage | undefined): AuthState {
  const raw = storage?.getItem(AUTH_STORAGE_KEY);
  if (!raw) return LOGGED_OUT;
  try {
    const parsed = JSON.parse(raw) as Partial<AuthState>;
    if (parsed.isAuthenticated === true && isAuthUser(parsed.user) && typeof parsed.token === 'string') {
      return {
        token: parsed.token,
        refreshToken: typeof parsed.refreshToken === 'string' ? parsed.refreshToken : null,
        isAuthenticated: true,
        loading: false,
        user: withProfileId(parsed.user),
      };
    }
  } catch {
    // An unreadable value is treated as logged out below.
  }
  return LOGGED_OUT;
}

function browserStorage(): Storage | undefined {
  return typeof window === 'undefined' ? undefined : window.localStorage;
}

/**
 * The session as persisted right now, which another tab may have changed since this tab's store last heard
 * (its 'storage' event comes later): the session keeper reads it before renewing, under the cross-tab lock.
 */
export function readStoredSession(storage: Storage | undefined = browserStorage()): AuthState {
  return readPersisted(storage);
}

/** Builds a session store bound to a storage; the app uses the one below, tests may build their own. */
export function createSessionStore(storage: Storage | undefined = browserStorage()) {
  const store = createStore<SessionStore>()((set) => ({
    ...readPersisted(storage),
    setSession: (user, refreshToken = null) =>
      set({
        token: user.token,
        refreshToken,
        isAuthenticated: true,
        loading: false,
        user: withProfileId(user),
      }),
    // Tokens renewed for a session that has ended meanwhile (a logout racing the renewal) are not kept.
    setTokens: (token, refreshToken) =>
      set((state) =>
        state.isAuthenticated && state.user ? { token, refreshToken, user: { ...state.user, token } } : {},
      ),
    clearSession: () => set(LOGGED_OUT),
    setLoading: (loading) => set({ loading }),
    setProfileId: (profileId) =>
      set((state) => (state.user ? { user: { ...state.user, profile_id: profileIdOf(profileId) } } : {})),
  }));
  store.subscribe(({ token, refreshToken, isAuthenticated, loading, user }) => {
    storage?.setItem(
      AUTH_STORAGE_KEY,
      JSON.stringify({ token, refreshToken, isAuthenticated, loading, user }),
    );
  });
  return store;
}

export const sessionStore = createSessionStore();

// Another tab signing in or out (or renewing the tokens) updates this one too, so two tabs never disagree
// about who is signed in.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === AUTH_STORAGE_KEY) sessionStore.setState(readPersisted(window.localStorage));
  });
}

export function useSession<T>(selector: (state: SessionStore) => T): T {
  return useStore(sessionStore, selector);
}

export const useIsAuthenticated = (): boolean => useSession((s) => s.isAuthenticated);
export const useUser = (): AuthUser | null => useSession((s) => s.user);
export const useIsContributor = (): boolean => useSession((s) => s.user?.contributor === true);
export const useIsAdmin = (): boolean => useSession((s) => s.user?.admin === true);

export const setSession = (user: AuthUser, refreshToken?: string | null): void =>
  sessionStore.getState().setSession(user, refreshToken);
export const clearSession = (): void => sessionStore.getState().clearSession();
export const setProfileId = (profileId: number): void => sessionStore.getState().setProfileId(profileId);

/**
 * Where a signed-in user belongs (docs/product.md#2-screens-and-routes): the public square with a profile,
 * profile creation without.
 */
export function homePathFor(user: AuthUser): string {
  return user.profile_id ? '/public-square' : '/profile/create';
}

type TokenRefresher = () => Promise<void>;

let tokenRefresher: TokenRefresher | null = null;

/**
 * The shell's session keeper registers how to renew the access token; `freshToken` uses it. Answers a
 * function that unregisters it.
 */
export function registerTokenRefresher(refresher: TokenRefresher): () => void {
  tokenRefresher = refresher;
  return () => {
    if (tokenRefresher === refresher) tokenRefresher = null;
  };
}

/**
 * The access token to send with an API call (header x-auth-token), renewed first when it is about to
 * expire; null when nobody is signed in. Screens call this right before a member-only request, so a
 * member coming back after a pause does not send an expired token.
 */
export async function freshToken(): Promise<string | null> {
  if (tokenRefresher && sessionStore.getState().isAuthenticated) {
    try {
      await tokenRefresher();
    } catch {
      // The keeper ends the session itself when renewal shows it is over; otherwise use what we have.
    }
  }
  return sessionStore.getState().token;
}

/** The window event a micro-frontend sends to ask the shell for its login dialog (a visitor's 'Create Post'). */
export const LOGIN_REQUEST_EVENT = 'rotunda:login-requested';

/** Asks the shell to open its login dialog: the shell owns it, and a remote cannot reach the shell's state. */
export function requestLogin(): void {
  window.dispatchEvent(new CustomEvent(LOGIN_REQUEST_EVENT));
}
