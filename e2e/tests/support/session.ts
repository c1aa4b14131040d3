// Test helper: starts a page as a signed-in member by seeding the persisted session before the app loads.
import type { Page } from '@playwright/test';

export async function signInAsMember(page: Page): Promise<void> {
  const user = {
    token: 'e2e-token',
    user_id: 'e2e-user',
    profile_id: 'e2e-profile',
    first_name: 'Eva',
    last_name: 'Tester',
    email: 'eva@dof.ca.gov',
    contributor: false,
    email_confirmed: true,
  };
  await page.addInitScript(
    (auth) => {
      localStorage.setItem('auth', JSON.stringify(auth));
    },
    { token: user.token, isAuthenticated: true, loading: false, user },
  );
}
