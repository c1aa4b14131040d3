// The engines' build cache: one folder per machine (or user), outside any clone, holding one entry per engine
// and pinned version (keycloak-26.7.3/, seaweedfs-<version>/ …). A fresh clone reuses what an earlier one built;
// a version bump names a new entry, so it is built anew and the old one is never mistaken for it.
//
// An entry is built in a folder of its own under .partial/ and renamed into place only when complete, so an
// interrupted build leaves no entry to reuse, and two builds of one entry at once (two clones' CI runs) both
// finish: the first rename wins and the other build is discarded. The .partial/ folders of builds whose process
// is gone are removed by the next build.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the cache lives unless ENGINES_CACHE says: root's in /var/cache (OpenSearch runs as `nobody` when we are
 * root and must read its distribution, which /root's mode 700 would forbid), anyone else's in their XDG cache.
 */
export function defaultCacheFolder(
  env: NodeJS.ProcessEnv = process.env,
  uid: number | undefined = process.getuid?.(),
  home: string = homedir(),
): string {
  if (env.ENGINES_CACHE) return env.ENGINES_CACHE;
  if (uid === 0) return '/var/cache/rotunda/engines';
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'rotunda/engines');
}

const PARTIAL = '.partial';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but is someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the partial builds whose process is gone (killed, crashed, machine restarted). */
export function removeAbandonedBuilds(cache: string): void {
  const partials = join(cache, PARTIAL);
  if (!existsSync(partials)) return;
  for (const name of readdirSync(partials)) {
    // `<key>.<pid>.<mkdtemp's suffix>`: read from the end, as a key holds dots of its own (keycloak-26.7.3).
    const pid = Number(/\.(\d+)\.[^.]+$/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || !alive(pid)) rmSync(join(partials, name), { recursive: true, force: true });
  }
}

/**
 * The folder of the entry `key` (an engine and its version), built first by `build` when the cache lacks it.
 * `build` fills the empty folder it is given; only a build that resolved is renamed into place.
 */
export async function cachedEntry(
  cache: string,
  key: string,
  build: (folder: string) => Promise<void>,
): Promise<string> {
  const entry = join(cache, key);
  if (existsSync(entry)) return entry;
  removeAbandonedBuilds(cache);
  mkdirSync(join(cache, PARTIAL), { recursive: true });
  const partial = mkdtempSync(join(cache, PARTIAL, `${key}.${process.pid}.`));
  // mkdtemp makes it private; the entry must be readable by whoever runs the engine (`nobody`, for OpenSearch).
  chmodSync(partial, 0o755);
  try {
    await build(partial);
    renameSync(partial, entry);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Another build of the same entry finished first: its result is as good as ours.
    if (!((code === 'ENOTEMPTY' || code === 'EEXIST') && existsSync(entry))) throw error;
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return entry;
}
