// The session store keeps the spec's shape under localStorage 'auth' and survives a reload.
import { beforeEach, describe, expect, it } from 'vitest';
import { AUTH_STORAGE_KEY, type AuthUser, createSessionStore, homePathFor } from '../src/index';

const member: AuthUser = {
  token: 'token-1',
  user_id: 'u1',
  profile_id: 'p1',
  first_name: 'Ada',
  last_name: 'Lopez',
  email: 'ada@dof.ca.gov',
  contributor: false,
  email_confirmed: true,
};

describe('session store', () => {
  beforeEach(() => localStorage.clear());

  it('starts logged out when nothing is stored', () => {
    const state = createSessionStore(localStorage).getState();
    expect(state).toMatchObject({ token: null, isAuthenticated: false, loading: false, user: null });
  });

  it('persists the session under the auth key with exactly token, isAuthenticated, loading and user', () => {
    createSessionStore(localStorage).getState().setSession(member);
    const stored = JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? 'null');
    expect(stored).toEqual({ token: 'token-1', isAuthenticated: true, loading: false, user: member });
  });

  it('restores the session in a new store, as after a page reload', () => {
    createSessionStore(localStorage).getState().setSession(member);
    const reloaded = createSessionStore(localStorage).getState();
    expect(reloaded.isAuthenticated).toBe(true);
    expect(reloaded.user).toEqual(member);
  });

  it('clears the stored session on logout', () => {
    const store = createSessionStore(localStorage);
    store.getState().setSession(member);
    store.getState().clearSession();
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? 'null')).toEqual({
      token: null,
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
