// Test support for the session store and the apps that read it (published as @rotunda/session/testing): a
// signed-in member to store, and a reset to 'nobody signed in, nothing in localStorage'.
import { type AuthUser, clearSession } from '../src/index';

/** Ada Lopez, a member with a profile and a confirmed email; `overrides` changes any field. */
export function makeMember(overrides: Partial<AuthUser> = {}): AuthUser {
  return {
    token: 'token-1',
    user_id: 'u1',
    profile_id: 1,
    first_name: 'Ada',
    last_name: 'Lopez',
    email: 'ada@dof.ca.gov',
    contributor: false,
    email_confirmed: true,
    ...overrides,
  };
}

/** Signs out of the shared store and empties localStorage, where the store keeps the session. */
export function resetSession(): void {
  clearSession();
  localStorage.clear();
}
