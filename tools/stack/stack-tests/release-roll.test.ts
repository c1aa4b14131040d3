// A micro-frontend rolled to a new build while a member's page is open, as a release does it (ADR 0026): the new
// image is built naming the running one as its previous release, runs beside the old replica for a while, then
// replaces it. While both run, the front door finds the new release's files though the old replica answers 404
// for them (edge.conf retries a hashed file on the next replica); once the old replica is gone, the page opened
// before the roll still loads the old release's chunks it had not needed yet (the new image carries them); a
// new load runs the new release. The stack is given back its own mf-feed image afterwards.
//
// The new release changes the read dialog's code, its one lazily loaded chunk: the square links the dialog's
// stylesheet in its first screen (ADR 0061), so a changed stylesheet would leave that chunk the same in both
// releases.
import { execFile } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../../e2e/chromium.ts';
import { DOCKER, dockerEnv } from '../src/engine.ts';
import { buildImages } from '../src/images.ts';
import { compose, STACK_URL, say } from '../src/stack.ts';
import { containersOf, docker } from './support/docker.ts';

const run = promisify(execFile);
const REPO = join(import.meta.dirname, '../../..');

const SERVICE = 'mf-feed';
const IMAGE = `rotunda/${SERVICE}:local`;
/** The running release, kept under a second name while the new one takes IMAGE's. */
const PREVIOUS = `rotunda/${SERVICE}:previous`;
const SITE = '/usr/share/nginx/html/mf/feed';
/** The roll, its image build included, on a machine that gives the stack only idle CPU. */
const ROLL_MS = 15 * 60_000;
/** nginx's resolver in edge.conf asks Docker's DNS again after this long. */
const EDGE_RESOLVE_MS = 11_000;

interface ReleaseAssets {
  release: string;
  assets: string[];
  carried: { release: string; assets: string[] } | null;
}

const replicas = () => containersOf(SERVICE, { all: false });

async function imageOf(container: string): Promise<string> {
  return docker('container', 'inspect', '--format', '{{.Image}}', container);
}

async function releaseOf(container: string): Promise<ReleaseAssets> {
  return JSON.parse(await docker('exec', container, 'cat', `${SITE}/release-assets.json`)) as ReleaseAssets;
}

async function healthy(count: number): Promise<string[]> {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    const ids = await replicas();
    const states = await Promise.all(
      ids.map((id) => docker('container', 'inspect', '--format', '{{.State.Health.Status}}', id)),
    );
    if (ids.length === count && states.every((state) => state === 'healthy')) return ids;
    await sleep(1_000);
  }
  throw new Error(`${SERVICE} did not reach ${count} healthy replicas`);
}

async function composeUp(...args: string[]): Promise<void> {
  const { binary, args: project } = await compose();
  await run(binary, [...project, 'up', '--detach', '--no-deps', '--no-build', ...args, SERVICE], {
    cwd: REPO,
    env: dockerEnv(),
  });
}

const pathOf = (asset: string) => `${STACK_URL}/mf/feed/${asset}`;

describe('a micro-frontend rolled to a new build while a page is open', () => {
  let browser: Browser | undefined;
  let context: string | undefined;
  let built: string | undefined;

  afterAll(async () => {
    await browser?.close();
    if (context) rmSync(context, { recursive: true, force: true });
    // The stack gets its own image back, and the roll's image is removed.
    if ((await docker('image', 'ls', '--quiet', PREVIOUS)) !== '') {
      await docker('tag', PREVIOUS, IMAGE);
      await docker('image', 'rm', PREVIOUS);
      await composeUp('--force-recreate', '--scale', `${SERVICE}=1`);
      await healthy(1);
    }
    if (built) await docker('image', 'rm', built).catch(() => '');
  });

  // The new release's image is built within the test: 31 s on an idle machine, past 3 minutes on idle CPU only.
  it('serves both releases through the roll, and the open page carries on', {
    timeout: ROLL_MS,
  }, async () => {
    const [running] = await healthy(1);
    if (!running) throw new Error(`no ${SERVICE} replica`);
    const old = await releaseOf(running);

    browser = await chromium.launch(chromiumLaunchOptions);
    const page = await browser.newPage();
    const fetched: { path: string; status: number }[] = [];
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith('/mf/feed/static/'))
        fetched.push({ path: path.slice('/mf/feed/'.length), status: response.status() });
    });
    await page.goto(`${STACK_URL}/public-square`);
    const posts = page.getByRole('region', { name: 'Posts' }).getByRole('article');
    await expect.poll(() => posts.count(), { timeout: 30_000 }).toBeGreaterThan(0);

    // The new release: this checkout (tracked and new files) with the read dialog's code changed, built naming the
    // running image. The change marks the page when the new dialog's code runs.
    context = mkdtempSync(join(tmpdir(), 'rotunda-release-'));
    const { stdout: files } = await run(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
      {
        cwd: REPO,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const list = join(context, '.files');
    writeFileSync(list, files);
    await run('sh', ['-c', `tar --null --ignore-failed-read -T "${list}" -cf - | tar -x -C "${context}"`], {
      cwd: REPO,
      maxBuffer: 16 * 1024 * 1024,
    });
    rmSync(list);
    const stamp = String(Date.now());
    appendFileSync(
      join(context, 'mf-feed/src/post/ReadPostDialog.tsx'),
      `\ndocument.documentElement.dataset.releaseRoll = '${stamp}';\n`,
    );
    const ranNewDialog = () => page.locator('html').getAttribute('data-release-roll');
    await docker('tag', IMAGE, PREVIOUS);
    await buildImages(
      [
        {
          image: IMAGE,
          context,
          dockerfile: join(context, 'docker/web/Dockerfile'),
          args: { WORKSPACE: SERVICE, SITE_PATH: 'mf/feed', PREVIOUS_RELEASE: PREVIOUS },
        },
      ],
      say,
    );
    built = (await docker('image', 'inspect', '--format', '{{.Id}}', IMAGE)).trim();

    // Mid-roll: the new replica starts beside the old one.
    await composeUp('--no-recreate', '--scale', `${SERVICE}=2`);
    const both = await healthy(2);
    const oldReplica = running;
    const newReplica = both.find((id) => id !== running) ?? '';
    expect(await imageOf(newReplica)).toBe(built);
    const next = await releaseOf(newReplica);
    expect(next.release).not.toBe(old.release);
    expect(next.carried?.release, 'the new image carries the running release').toBe(old.release);
    const newOnly = next.assets.filter((asset) => !old.assets.includes(asset));
    expect(newOnly.length, 'files of the new release the old replica lacks').toBeGreaterThan(0);
    await sleep(EDGE_RESOLVE_MS);

    // Every request for a new file gets it, though the old replica is asked for some and answers 404.
    for (const asset of newOnly)
      for (let attempt = 0; attempt < 6; attempt += 1)
        expect((await fetch(pathOf(asset))).status, asset).toBe(200);
    const oldLog = await run(DOCKER, ['logs', oldReplica], { env: dockerEnv(), maxBuffer: 64 * 1024 * 1024 });
    expect(
      newOnly.some((asset) => `${oldLog.stdout}${oldLog.stderr}`.includes(`/mf/feed/${asset} HTTP/1.1" 404`)),
      'the old replica was asked for a new file and answered 404',
    ).toBe(true);

    // The roll ends: the old replica is retired.
    await docker('container', 'rm', '--force', oldReplica);
    await healthy(1);
    await sleep(EDGE_RESOLVE_MS);

    // The page opened before the roll opens a post: the read dialog's code, which it had not needed yet, is the
    // old release's, and only the new image's carried copy can answer it.
    const before = fetched.length;
    const [first] = await posts.all();
    await first?.getByRole('button', { name: 'Keep Reading' }).click();
    await expect.poll(async () => page.getByRole('dialog').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const dialogFiles = fetched.slice(before);
    expect(dialogFiles.length, "the read dialog's files").toBeGreaterThan(0);
    for (const file of dialogFiles) expect(file.status, file.path).toBe(200);
    expect(
      dialogFiles.some((file) => old.assets.includes(file.path) && !next.assets.includes(file.path)),
      'the open page fetched an old-release file only the carried copy has',
    ).toBe(true);
    expect(await ranNewDialog(), "the open page ran the old release's dialog").toBeNull();

    // Loading the square again runs the new release: its read dialog is the changed one. (Not a reload: the open
    // dialog has put the post's address in the address bar, ADR 0061.)
    const reloaded = fetched.length;
    await page.goto(`${STACK_URL}/public-square`);
    await expect.poll(() => posts.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await (await posts.all())[0]?.getByRole('button', { name: 'Keep Reading' }).click();
    await expect.poll(async () => page.getByRole('dialog').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(fetched.slice(reloaded).some((file) => newOnly.includes(file.path))).toBe(true);
    expect(await ranNewDialog()).toBe(stamp);
  });
});
