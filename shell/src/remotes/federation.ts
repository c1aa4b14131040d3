// Loads exposed modules of the micro-frontends at run time. The remotes' locations come from /remotes.json,
// not from the build, so any remote can be redeployed without rebuilding the shell.
import { loadRemote, preloadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';

/** An exposed route component, named '<remote>/<exposed name>', e.g. 'mf_feed/PublicSquare'. */
export type RemoteModuleId = `${string}/${string}`;

let registered: Promise<Record<string, string>> | null = null;

async function fetchRemotes(): Promise<Record<string, string>> {
  const response = await fetch('/remotes.json', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET /remotes.json answered ${response.status}`);
  const remotes = (await response.json()) as Record<string, string>;
  registerRemotes(Object.entries(remotes).map(([name, entry]) => ({ name, entry })));
  return remotes;
}

/** Registers the remotes once; a failed attempt is forgotten so that the next one asks again. */
function ensureRegistered(): Promise<Record<string, string>> {
  if (!registered) {
    registered = fetchRemotes();
    registered.catch(() => {
      registered = null;
    });
  }
  return registered;
}

const failedRemotes = new Set<string>();

// How the Module Federation runtime refuses a singleton whose strictVersion requirement is not met, e.g.
// 'Version 19.3.1 from shell of shared singleton module react does not satisfy the requirement of mf_feed
// which needs ^20.0.0)'.
const UNMET_SINGLETON = /shared singleton module \S+ does not satisfy the requirement of /;

/**
 * Whether a load failed because the remote was built against a version of a shared singleton (React, the
 * router, the session store) that this page does not provide, e.g. released for a newer shell.
 */
export function isIncompatibleRemote(error: unknown): boolean {
  return error instanceof Error && UNMET_SINGLETON.test(error.message);
}

const remoteNameOf = (id: RemoteModuleId) => id.slice(0, id.indexOf('/'));

/**
 * Fetches a remote's manifest, its entry and the files its exposed module needs at once, without running the
 * module, so they arrive while the shell's own code is still loading. The remote's copies of the shared
 * singletons are left alone (the shell's are the ones used). A failed preload makes the next load register
 * the remote anew, as a failed load does.
 */
export async function preloadRemoteModule(id: RemoteModuleId): Promise<void> {
  await ensureRegistered();
  const remoteName = remoteNameOf(id);
  try {
    await preloadRemote([
      {
        nameOrAlias: remoteName,
        exposes: [id.slice(remoteName.length + 1)],
        resourceCategory: 'sync',
        share: false,
        depsRemote: false,
      },
    ]);
  } catch (error) {
    failedRemotes.add(remoteName);
    throw error;
  }
}

/**
 * The default export of a remote's exposed module. After a failure the remote is registered again with
 * `force`, which drops the runtime's cached (failed) entry so that a retry really fetches it anew.
 */
export async function loadRemoteComponent(id: RemoteModuleId): Promise<ComponentType> {
  const remotes = await ensureRegistered();
  const remoteName = remoteNameOf(id);
  const entry = remotes[remoteName];
  if (!entry) throw new Error(`No remote named ${remoteName} in /remotes.json`);
  if (failedRemotes.has(remoteName)) {
    registerRemotes([{ name: remoteName, entry }], { force: true });
    failedRemotes.delete(remoteName);
  }
  try {
    const module = await loadRemote<{ default?: ComponentType }>(id);
    if (!module?.default) throw new Error(`${id} has no default export`);
    return module.default;
  } catch (error) {
    failedRemotes.add(remoteName);
    throw error;
  }
}
