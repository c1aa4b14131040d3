// Independent remote rollouts. The public square's micro-frontend is rolled from build A (the one the product
// serves) to build B (a real rebuild of its source with a changed line of text) while a member's page runs A:
// the member's browser got A's manifest, and the next file it asks for comes from the rolled-out server, which
// now holds B. B carries A's hashed files, so A keeps working (no 404, no error panel) as the member goes on;
// a fresh load gets B. This test plays the remote's server: it answers /mf/feed/ from A's folder, then from
// B's, the way a pod is replaced in a rolling update (the product's own folder stays untouched). The product's
// own serving of a remote is checked too: hashed files cached for a year, manifests revalidated every time.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Route, test } from '@playwright/test';
import { signInAsMember } from './support/session.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
// The public square's lede in each build (regular expressions: text matching ignores case otherwise).
const LEDE_A = /^Announcements, events and the day’s news/;
const LEDE_B = /^Release B: announcements, events and the day’s news/;

interface ReleaseAssets {
  release: string;
  assets: string[];
  carried: { release: string; assets: string[] } | null;
}

let work = '';
let releaseA = '';
let releaseB = '';

test.beforeAll(async () => {
  // A rebuild on a loaded CI machine takes a while.
  test.setTimeout(180_000);
  // Inside the repository, where the rebuild finds its node_modules; in this run's own output folder.
  const output = test.info().project.outputDir;
  mkdirSync(output, { recursive: true });
  work = mkdtempSync(join(output, 'rollout-'));
  releaseA = join(work, 'release-a');
  cpSync(join(REPO, 'mf-feed', 'dist'), releaseA, { recursive: true });

  // Build B: the remote's source with its lede changed, built as a rollout builds it, carrying A.
  const source = join(work, 'mf-feed');
  for (const entry of ['src', 'package.json', 'rsbuild.config.ts'])
    cpSync(join(REPO, 'mf-feed', entry), join(source, entry), { recursive: true });
  const square = join(source, 'src', 'PublicSquare.tsx');
  const text = readFileSync(square, 'utf8');
  const changed = text.replace(
    'Announcements, events and the day&rsquo;s news',
    'Release B: announcements, events and the day&rsquo;s news',
  );
  expect(changed).not.toBe(text);
  writeFileSync(square, changed);
  execFileSync(
    join(REPO, 'node_modules', '.bin', 'node'),
    [join(REPO, 'node_modules', '@rsbuild', 'core', 'bin', 'rsbuild.js'), 'build'],
    { cwd: source, env: { ...process.env, PREVIOUS_RELEASE_DIR: releaseA }, stdio: 'pipe' },
  );
  releaseB = join(source, 'dist');
});

test.afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const releaseAssets = (folder: string) =>
  JSON.parse(readFileSync(join(folder, 'release-assets.json'), 'utf8')) as ReleaseAssets;

test('a member mid-session keeps using the public square while its remote is rolled from A to B', async ({
  page,
  browser,
}) => {
  const a = releaseAssets(releaseA);
  const b = releaseAssets(releaseB);
  expect(b.carried?.release, 'B carries A').toBe(a.release);
  const onlyInA = new Set(a.assets.filter((file) => !b.assets.includes(file)));
  expect(onlyInA.size, 'A and B differ').toBeGreaterThan(0);

  // The remote's server: A's folder until the rollout, B's after it.
  let served = releaseA;
  let rollOutBeforeNextChunk = false;
  const answers: { file: string; status: number; release: 'A' | 'B' }[] = [];
  const pod = async (route: Route) => {
    const file = new URL(route.request().url()).pathname.replace(/^\/mf\/feed\//, '');
    // The race the rollout opens: the browser has A's manifest, the server is replaced before the next file.
    if (rollOutBeforeNextChunk && file.startsWith('static/')) {
      served = releaseB;
      rollOutBeforeNextChunk = false;
    }
    const path = join(served, file);
    const status = existsSync(path) && statSync(path).isFile() ? 200 : 404;
    answers.push({ file, status, release: served === releaseA ? 'A' : 'B' });
    if (status === 404) return route.fulfill({ status, body: 'Not Found' });
    return route.fulfill({
      path,
      headers: {
        'cache-control': file.startsWith('static/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      },
    });
  };
  await page.route('**/mf/feed/**', pod);

  await signInAsMember(page);
  await page.goto('/directory');
  const main = page.getByRole('navigation', { name: 'Main' });
  await expect(page.getByRole('heading', { level: 1, name: 'Directory' })).toBeVisible();

  // The member opens the public square: the browser reads A's manifest, and the rollout happens right after.
  await page.route('**/mf/feed/mf-manifest.json', async (route) => {
    rollOutBeforeNextChunk = true;
    await route.fallback();
  });
  await main.getByRole('link', { name: 'Public Square' }).click();
  await expect(page.getByText(LEDE_A)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Headlines' }).getByRole('listitem').first()).toBeVisible();
  expect(served, 'the rollout happened mid-load').toBe(releaseB);
  const aFilesFromB = answers.filter((answer) => answer.release === 'B' && onlyInA.has(answer.file));
  expect(aFilesFromB.length, 'A’s own chunks were asked of B').toBeGreaterThan(0);

  // The member goes on: the Create Post dialog (its editor loads lazily), another screen and back.
  await page.getByRole('button', { name: 'Create Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Post' });
  await expect(dialog.getByRole('textbox', { name: 'Post Body' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await main.getByRole('link', { name: 'Directory' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Directory' })).toBeVisible();
  await main.getByRole('link', { name: 'Public Square' }).click();
  await expect(page.getByText(LEDE_A)).toBeVisible();
  await expect(page.getByRole('heading', { name: /could not be loaded|was updated/ })).toHaveCount(0);
  expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);

  // A fresh load gets B (a new visitor's: reloading the member's page could cut off its token renewal).
  const fresh = await browser.newPage();
  await fresh.route('**/mf/feed/**', pod);
  await fresh.goto('/public-square');
  await expect(fresh.getByText(LEDE_B)).toBeVisible();
  await expect(fresh.getByText(LEDE_A)).toHaveCount(0);
  await fresh.close();
  expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
});

test('the product serves a remote’s hashed files for a year and its manifests fresh every time', async ({
  request,
}) => {
  const served = (await (await request.get('/mf/feed/release-assets.json')).json()) as ReleaseAssets;
  for (const file of ['mf-manifest.json', 'release-assets.json']) {
    const response = await request.get(`/mf/feed/${file}`);
    expect(response.status(), file).toBe(200);
    expect(response.headers()['cache-control'], file).toBe('no-cache');
  }
  for (const file of [...served.assets, ...(served.carried?.assets ?? [])].slice(0, 5)) {
    const response = await request.get(`/mf/feed/${file}`);
    expect(response.status(), file).toBe(200);
    expect(response.headers()['cache-control'], file).toBe('public, max-age=31536000, immutable');
  }
});
