// The engines' build cache: outside the clone by default, one entry per engine and version, built once and
// reused, never reused half-built (a build killed mid-way, a failed one), and two builds of one entry at once
// both end with the one complete entry. Real folders and a real process killed with SIGKILL; no engine.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedEntry, defaultCacheFolder } from '../src/cache.ts';
import { layout } from '../src/layout.ts';
import { KEYCLOAK, SEAWEEDFS } from '../src/versions.ts';

const REPO = resolve(import.meta.dirname, '../../..');
const CACHE_MODULE = resolve(import.meta.dirname, '../src/cache.ts');

let cache: string;
beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), 'engines-cache-'));
});
afterEach(() => rmSync(cache, { recursive: true, force: true }));

/** A build as the engines' are: it writes its files into the folder it is given. */
function writing(files: Record<string, string>, counter?: { builds: number }) {
  return async (folder: string) => {
    if (counter) counter.builds += 1;
    for (const [name, text] of Object.entries(files)) {
      await sleep(20);
      writeFileSync(join(folder, name), text);
    }
  };
}

const partials = () => (existsSync(join(cache, '.partial')) ? readdirSync(join(cache, '.partial')) : []);

describe('where the cache lives', () => {
  it('is outside the clone by default: the XDG cache, ~/.cache, or /var/cache for root', () => {
    expect(defaultCacheFolder({ XDG_CACHE_HOME: '/x/cache' }, 1000, '/home/ann')).toBe(
      '/x/cache/rotunda/engines',
    );
    expect(defaultCacheFolder({}, 1000, '/home/ann')).toBe('/home/ann/.cache/rotunda/engines');
    // OpenSearch runs as `nobody` under root and could not read a distribution inside /root.
    expect(defaultCacheFolder({ XDG_CACHE_HOME: '/root/.cache' }, 0, '/root')).toBe(
      '/var/cache/rotunda/engines',
    );
    expect(defaultCacheFolder({ ENGINES_CACHE: '/shared/engines' }, 0, '/root')).toBe('/shared/engines');
    expect(layout('test').cache.startsWith(REPO)).toBe(false);
  });

  it('names each entry by the engine and its pinned version, so a version bump builds anew', async () => {
    const counter = { builds: 0 };
    const old = await cachedEntry(cache, 'seaweedfs-v1', writing({ weed: 'v1' }, counter));
    const bumped = await cachedEntry(
      cache,
      `seaweedfs-${SEAWEEDFS.version}`,
      writing({ weed: 'v2' }, counter),
    );
    expect(counter.builds).toBe(2);
    expect(readFileSync(join(old, 'weed'), 'utf8')).toBe('v1');
    expect(readFileSync(join(bumped, 'weed'), 'utf8')).toBe('v2');
    expect(bumped).toBe(join(cache, `seaweedfs-${SEAWEEDFS.version}`));
  });
});

describe('an entry', () => {
  it('is built once, then reused as it is (as by a fresh clone on the same machine)', async () => {
    const counter = { builds: 0 };
    const key = `keycloak-${KEYCLOAK.version}`;
    const first = await cachedEntry(cache, key, writing({ 'version.txt': KEYCLOAK.version }, counter));
    const again = await cachedEntry(cache, key, writing({ 'version.txt': 'other' }, counter));
    expect(again).toBe(first);
    expect(counter.builds).toBe(1);
    expect(readFileSync(join(again, 'version.txt'), 'utf8')).toBe(KEYCLOAK.version);
    // Readable by the user an engine may run as (OpenSearch as `nobody`).
    expect(statSync(first).mode & 0o777).toBe(0o755);
    expect(partials()).toEqual([]);
  });

  it('is not there after a failed build, and the next run builds it again', async () => {
    await expect(
      cachedEntry(cache, 'opensearch-1', async (folder) => {
        writeFileSync(join(folder, 'half'), 'x');
        throw new Error('download cut');
      }),
    ).rejects.toThrow('download cut');
    expect(existsSync(join(cache, 'opensearch-1'))).toBe(false);
    expect(partials()).toEqual([]);
    const entry = await cachedEntry(cache, 'opensearch-1', writing({ whole: 'y' }));
    expect(readdirSync(entry)).toEqual(['whole']);
  });

  it('is not there after its build was killed, and the next build clears what the killed one left', async () => {
    // A run killed mid-build (Ctrl-C twice, a CI timeout, a machine restart): SIGKILL leaves no chance to clean.
    const script = `
      import { cachedEntry } from ${JSON.stringify(CACHE_MODULE)};
      await cachedEntry(${JSON.stringify(cache)}, 'seaweedfs-1', async (folder) => {
        (await import('node:fs')).writeFileSync(folder + '/weed.half', 'x');
        console.log('building');
        await new Promise(() => setInterval(() => {}, 1000));
      });`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((started) => child.stdout.once('data', () => started()));
    const exited = new Promise((done) => child.once('exit', (_code, signal) => done(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(existsSync(join(cache, 'seaweedfs-1'))).toBe(false);
    expect(partials()).toHaveLength(1);

    const entry = await cachedEntry(cache, 'seaweedfs-1', writing({ weed: 'whole' }));
    expect(readdirSync(entry)).toEqual(['weed']);
    expect(partials()).toEqual([]);
  });

  it('built by two runs at once is one complete entry, and both runs use it', async () => {
    const counter = { builds: 0 };
    const files = { a: '1', b: '2', c: '3' };
    const [one, two] = await Promise.all([
      cachedEntry(cache, 'keycloak-1', writing(files, counter)),
      cachedEntry(cache, 'keycloak-1', writing(files, counter)),
    ]);
    expect(counter.builds).toBe(2);
    expect(one).toBe(two);
    expect(readdirSync(one).sort()).toEqual(['a', 'b', 'c']);
    expect(partials()).toEqual([]);
  });

  it('leaves a build still running in another process alone', async () => {
    // Another clone's CI run building the same version right now: its folder is not ours to remove.
    const child = spawn('sleep', ['30']);
    try {
      const theirs = join(cache, '.partial', `seaweedfs-1.${child.pid}.abcdef`);
      mkdirSync(theirs, { recursive: true });
      await cachedEntry(cache, 'keycloak-1', writing({ a: '1' }));
      expect(existsSync(theirs)).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('tells a running build from an abandoned one when the key holds dots, as a version does', async () => {
    const child = spawn('sleep', ['30']);
    try {
      const theirs = join(cache, '.partial', `keycloak-${KEYCLOAK.version}.${child.pid}.abcdef`);
      mkdirSync(theirs, { recursive: true });
      await cachedEntry(cache, 'keycloak-1', writing({ a: '1' }));
      expect(existsSync(theirs)).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
    // A pid no process has (above Linux's pid_max): a build that is gone, whatever digits its key holds.
    const abandoned = join(cache, '.partial', 'opensearch-1.2.3.4999999.abcdef');
    mkdirSync(abandoned, { recursive: true });
    await cachedEntry(cache, 'keycloak-2', writing({ a: '1' }));
    expect(existsSync(abandoned)).toBe(false);
  });
});
