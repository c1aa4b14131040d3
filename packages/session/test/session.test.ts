// The session store keeps the spec's shape (plus the refresh token) under localStorage 'auth', survives a
// reload, keeps renewed tokens in step, and hands API callers a fresh token.
import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AUTH_STORAGE_KEY,
  clearSession,
  createSessionStore,
  freshToken,
  homePathFor,
  registerTokenRefresher,
  sessionStore,
  setProfileId,
  setSession,
  useUser,
} from '../src/index';
import { makeMember, resetSession } from './support';

const member = makeMember();

describe('session store', () => {
  beforeEach(resetSession);

  it('starts logged out when nothing is stored', () => {
    const state = createSessionStore(localStorage).getState();
    expect(state).toMatchObject({ token: null, isAuthenticated: false, loading: false, user: null });
  });

  it('persists the session under the auth key: token, isAuthenticated, loading, user and the refresh token', () => {
    createSessionStore(localStorage).getState().setSession(member, 'refresh-1');
    const stored = JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? 'null');
    expect(stored).toEqual({
      token: 'token-1',
      refreshToken: 'refresh-1',
      isAuthenticated: true,
      loading: false,
      user: member,
    });
  });

  it('keeps a renewed token in the store and in user.token, in step', () => {
    const store = createSessionStore(localStorage);
    store.getState().setSession(member, 'refresh-1');
    store.getState().setTokens('token-2', 'refresh-2');
    expect(store.getState()).toMatchObject({
      token: 'token-2',
      refreshToken: 'refresh-2',
      user: { ...member, token: 'token-2' },
    });
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? 'null')).toMatchObject({
      token: 'token-2',
      refreshToken: 'refresh-2',
      user: { token: 'token-2' },
    });
  });

  it('keeps no renewed tokens once signed out (a renewal answered after the logout)', () => {
    const store = createSessionStore(localStorage);
    store.getState().setSession(member, 'refresh-1');
    store.getState().clearSession();
    store.getState().setTokens('token-2', 'refresh-2');
    expect(store.getState()).toMatchObject({ token: null, refreshToken: null, isAuthenticated: false });
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? 'null')).toMatchObject({
      token: null,
      refreshToken: null,
      isAuthenticated: false,
    });
  });

  it('restores the session in a new store, as after a page reload', () => {
    createSessionStore(localStorage).getState().setSession(member);
    const reloaded = createSessionStore(localStorage).getState();
    expect(reloaded.isAuthenticated).toBe(true);
    expect(reloaded.user).toEqual(member);
    expect(reloaded.refreshToken).toBeNull();
  });

  it('clears the stored session on logout', () => {
    const store = createSessionStore(localStorage);
    store.getState().setSession(member);
    store.getState().clearSession();
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? 'null')).toEqual({
      token: null,
      refreshToken: null,
      isAuthenticated: false,
      loading: false,
      user: null,
    });
  });

  it('treats a corrupted stored value as logged out', () => {
    localStorage.setItem(AUTH_STORAGE_KEY, '{not json');
    expect(createSessionStore(localStorage).getState().isAuthenticated).toBe(false);
    localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ isAuthenticated: true, user: null }));
    expect(createSessionStore(localStorage).getState().isAuthenticated).toBe(false);
  });

  it('sends users with a profile to the public square and others to profile creation', () => {
    expect(homePathFor(member)).toBe('/public-square');
    expect(homePathFor({ ...member, profile_id: null })).toBe('/profile/create');
  });
});

describe('the profile id', () => {
  beforeEach(resetSession);

  it('records the profile a member created or claimed, in the store and in storage', () => {
    const store = createSessionStore(localStorage);
    store.getState().setSession({ ...member, profile_id: null }, 'refresh-1');
    store.getState().setProfileId(42);
    expect(store.getState().user).toEqual({ ...member, profile_id: 42 });
    expect(homePathFor(store.getState().user ?? member)).toBe('/public-square');
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? 'null')).toMatchObject({
      token: 'token-1',
      refreshToken: 'refresh-1',
      user: { profile_id: 42 },
    });
  });

  it('shows the new profile id at once to every screen reading the shared session', () => {
    setSession({ ...member, profile_id: null });
    const { result } = renderHook(() => useUser());
    expect(result.current?.profile_id).toBeNull();
    act(() => setProfileId(7));
    expect(result.current?.profile_id).toBe(7);
  });

  it('does nothing when nobody is signed in', () => {
    const store = createSessionStore(localStorage);
    store.getState().setProfileId(42);
    expect(store.getState()).toMatchObject({ isAuthenticated: false, user: null });
  });

  it('reads a profile id stored as text by an earlier version as a number', () => {
    const stored = { token: 'token-1', refreshToken: null, isAuthenticated: true, loading: false };
    localStorage.setItem(
      AUTH_STORAGE_KEY,
      JSON.stringify({ ...stored, user: { ...member, profile_id: '12' } }),
    );
    expect(createSessionStore(localStorage).getState().user?.profile_id).toBe(12);
    localStorage.setItem(
      AUTH_STORAGE_KEY,
      JSON.stringify({ ...stored, user: { ...member, profile_id: 'p1' } }),
    );
    expect(createSessionStore(localStorage).getState().user?.profile_id).toBeNull();
  });

  it("keeps the login answer's profile id as a number, or null without a profile", () => {
    const store = createSessionStore(localStorage);
    store.getState().setSession({ ...member, profile_id: 9 });
    expect(store.getState().user?.profile_id).toBe(9);
    store.getState().setSession({ ...member, profile_id: null });
    expect(store.getState().user?.profile_id).toBeNull();
  });
});

describe('freshToken', () => {
  beforeEach(resetSession);

  it('asks the registered refresher before answering the current token', async () => {
    setSession(member, 'refresh-1');
    const refresher = vi.fn(async () => sessionStore.getState().setTokens('token-2', 'refresh-2'));
    const unregister = registerTokenRefresher(refresher);
    expect(await freshToken()).toBe('token-2');
    expect(refresher).toHaveBeenCalledOnce();
    unregister();
    clearSession();
    expect(await freshToken()).toBeNull();
  });

  it('answers the current token when renewal fails', async () => {
    setSession(member, 'refresh-1');
    const unregister = registerTokenRefresher(async () => {
      throw new Error('offline');
    });
    expect(await freshToken()).toBe('token-1');
    unregister();
  });
});
