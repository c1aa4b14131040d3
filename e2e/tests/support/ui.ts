// Test helper: the access dialogs as a person uses them (login, the ALTCHA checkbox).
import { expect, type Locator, type Page } from '@playwright/test';

/** Ticks the ALTCHA checkbox, as a person does, and waits until the widget has solved its proof of work. */
export async function solveCaptcha(container: Locator): Promise<void> {
  const widget = container.locator('altcha-widget');
  // The widget draws its own box over the native input; a person clicks the drawn box or the label.
  await widget.getByText("I'm not a robot", { exact: true }).click();
  // Once solved, the checkbox is ticked and its label reads 'Verified'.
  await expect(widget.getByRole('checkbox', { name: 'Verified' })).toBeChecked({ timeout: 30_000 });
}

/** Opens the login dialog from the top bar and submits email and password with Enter. */
export async function logIn(page: Page, email: string, password: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: 'Log in' });
  if (!(await dialog.isVisible())) await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByLabel('Password', { exact: true }).press('Enter');
  return dialog;
}

/**
 * Logs in through the dialog and answers where the route table should have sent the member
 * (docs/product.md#2-screens-and-routes): the public square with a profile, profile creation without one, per
 * the login answer's profile_id.
 */
export async function logInAndLand(page: Page, email: string, password: string): Promise<RegExp> {
  const answered = page.waitForResponse((r) => r.url().endsWith('/auth/login'));
  await logIn(page, email, password);
  const response = await answered;
  expect(response.status()).toBe(200);
  const { user } = await response.json();
  const home = user.profile_id ? /\/public-square$/ : /\/profile\/create$/;
  await expect(page).toHaveURL(home);
  return home;
}

/** The session the shell persisted under localStorage 'auth'. */
export async function storedAuth(page: Page): Promise<{
  token: string | null;
  refreshToken: string | null;
  isAuthenticated: boolean;
  user: { token: string; profile_id: number | null; contributor: boolean } | null;
}> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('auth') ?? '{}'));
}
