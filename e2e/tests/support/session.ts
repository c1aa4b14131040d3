// Test helper: starts a page as a signed-in demo account: logs in through the API and seeds the persisted
// session (with its refresh token, which the shell's session keeper renews) before the app first loads.
import type { Page } from '@playwright/test';
import { DEMO } from './accounts.ts';

export async function signInAs(page: Page, account: { email: string; password: string }): Promise<void> {
  const response = await page.request.post('/auth/login', { data: account });
  if (!response.ok()) throw new Error(`login of ${account.email} answered ${response.status()}`);
  const { token, refreshToken, user } = await response.json();
  await page.addInitScript(
    (auth) => {
      // Seed once: later reloads keep whatever the app stored (renewed tokens, or a sign-out).
      if (sessionStorage.getItem('e2e-seeded')) return;
      sessionStorage.setItem('e2e-seeded', '1');
      localStorage.setItem('auth', JSON.stringify(auth));
    },
    { token, refreshToken, isAuthenticated: true, loading: false, user },
  );
}

export const signInAsMember = (page: Page): Promise<void> => signInAs(page, DEMO.member);
export const signInAsConcierge = (page: Page): Promise<void> => signInAs(page, DEMO.concierge);
