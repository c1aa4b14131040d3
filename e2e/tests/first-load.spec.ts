// A light first load (ADR 0030): a visitor's public square loads only what its first screen needs. The
// captcha (ALTCHA, in the register and reset request dialogs), the access dialogs, keycloak-js, the post
// dialogs with the rich-text editor and the calendar file's `ics` package each come in a chunk of their own,
// named in the build, and are fetched only when wanted: opening the register dialog then loads it and
// shows the captcha; a member's session loads keycloak-js; Create Post loads its dialog and the editor.
// The current screen's remote is preloaded alongside the shell's own code, and a visitor's first feed page
// is asked for early, once.
import type { Page } from '@playwright/test';
import { expect, step, test } from './support/journey.ts';
import { networkSettled } from './support/network.ts';
import { signInAsMember } from './support/session.ts';

/** Chunks a visitor's first screen does without, by the name each has in the build. */
const ON_DEMAND = {
  login: /\/dialog-login\.[0-9a-f]+\.js$/,
  register: /\/dialog-register\.[0-9a-f]+\.js$/,
  resetRequest: /\/dialog-reset-request\.[0-9a-f]+\.js$/,
  keycloak: /\/keycloak\.[0-9a-f]+\.js$/,
  createPost: /\/create-post-dialog\.[0-9a-f]+\.js$/,
  readPost: /\/read-post-dialog\.[0-9a-f]+\.js$/,
  editor: /\/quill\.[0-9a-f]+\.js$/,
  calendar: /\/ics\.[0-9a-f]+\.js$/,
} as const;

/** Every script URL the page requests from now on. */
function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

const loaded = (scripts: string[], chunk: RegExp) => scripts.some((path) => chunk.test(path));

async function openSquare(page: Page) {
  await page.goto('/public-square');
  await expect(page.getByRole('heading', { level: 1, name: 'Public Square' })).toBeVisible();
  await expect(page.getByRole('article').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Headlines' }).getByRole('listitem').first()).toBeVisible();
}

test('a visitor’s public square loads no captcha, dialog, keycloak-js, editor or calendar chunk, nor its first feed page again', async ({
  page,
}) => {
  const scripts = recordScripts(page);
  const feedPages: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/posts/all') feedPages.push(request.postData() ?? '');
  });
  await openSquare(page);
  // Anything started by the first screen has been asked for by now.
  await networkSettled(page);
  for (const [name, chunk] of Object.entries(ON_DEMAND)) expect(loaded(scripts, chunk), name).toBe(false);
  // The first feed page came with the page the gateway drew (ADR 0053): neither the shell nor the feed asks for it.
  expect(feedPages).toEqual([]);
});

test('the public square’s remote starts loading before the shell’s own code has arrived', async ({
  page,
}) => {
  // The shell's code beyond its entry is held back until the remote's entry has been asked for: without the
  // preload the remote would be discovered only once the shell renders, which cannot happen meanwhile.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/^[^?]*\/\/[^/]+\/static\/js\/async\//, async (route) => {
    await held;
    await route.fallback();
  });
  const remoteEntry = page.waitForRequest(/\/mf\/feed\/static\/js\/mf_feed\.[0-9a-f]+\.js$/);
  await page.goto('/public-square', { waitUntil: 'commit' });
  await remoteEntry;
  // The shell has drawn nothing of its own yet: #root holds the gateway's first screen only (ADR 0053).
  await expect(page.locator('#root > [data-first-screen]')).toHaveCount(1);
  await expect(page.locator('#root > :not([data-first-screen])')).toHaveCount(0);
  release();
  await expect(page.getByRole('heading', { level: 1, name: 'Public Square' })).toBeVisible();
});

test('opening the register dialog loads it, focused in its first field, with the captcha', async ({
  page,
}) => {
  const scripts = recordScripts(page);
  await openSquare(page);
  const login = page.getByRole('dialog', { name: 'Log in' });
  await step(page, 'the login dialog', async () => {
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(login.getByLabel('Email')).toBeFocused();
  });
  expect(loaded(scripts, ON_DEMAND.login)).toBe(true);
  expect(loaded(scripts, ON_DEMAND.register)).toBe(false);

  const register = page.getByRole('dialog', { name: 'Register' });
  await step(page, 'the register dialog, with the captcha', async () => {
    await login.getByRole('button', { name: 'Register' }).click();
    await expect(register.getByLabel('First name')).toBeFocused();
    await expect(
      register.locator('altcha-widget').getByText("I'm not a robot", { exact: true }),
    ).toBeVisible();
  });
  expect(loaded(scripts, ON_DEMAND.register)).toBe(true);
  expect(loaded(scripts, ON_DEMAND.keycloak)).toBe(false);

  // Closing gives the focus back to the top bar's Log in icon, which opened the first dialog.
  await page.keyboard.press('Escape');
  await expect(register).toBeHidden();
  await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeFocused();
});

test('a member’s session loads keycloak-js, and Create Post loads its dialog and the editor', async ({
  page,
}) => {
  const scripts = recordScripts(page);
  await signInAsMember(page);
  await openSquare(page);
  await expect.poll(() => loaded(scripts, ON_DEMAND.keycloak)).toBe(true);
  expect(loaded(scripts, ON_DEMAND.createPost)).toBe(false);

  const dialog = page.getByRole('dialog', { name: 'Create Post' });
  await step(page, 'the Create Post dialog', async () => {
    await page.getByRole('button', { name: 'Create Post' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Post Body' })).toBeVisible();
  });
  expect(loaded(scripts, ON_DEMAND.createPost)).toBe(true);
  expect(loaded(scripts, ON_DEMAND.editor)).toBe(true);
});
