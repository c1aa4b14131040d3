// The Rsbuild configuration of the front end in one place: React plus Module Federation with the singletons
// the shell and every remote share, and a remote's whole config from its name, screens, title and dev port.
// Rsbuild loads each app's rsbuild.config.ts, and this file with it, in Node.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import type { RsbuildConfig, RsbuildPlugin } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginCarryPreviousRelease } from './carry.ts';
import { pluginPrecompress } from './precompress.ts';
import { pluginSharedRouter, SHARED_ROUTER_MODULE } from './router.ts';

/** Singletons the shell and every remote share: one React, one router context and one session store. */
export const SHARED_SINGLETONS = [
  'react',
  'react-dom',
  'react-router',
  'zustand',
  '@rotunda/session',
] as const;

/**
 * Singletons whose version a remote cannot do without: a remote built against another major of React, the
 * router or the session store would break the page, so loading it fails instead (and the shell says so).
 * zustand is not among them: remotes reach the store only through @rotunda/session.
 */
const STRICT: ReadonlySet<string> = new Set(['react', 'react-dom', 'react-router', '@rotunda/session']);

export interface SharedSingleton {
  singleton: true;
  /** `^` the version the app is built with: the same major, at least that version. */
  requiredVersion: string;
  strictVersion: boolean;
}

/** The version of a package as installed for the app in `root` (the nearest node_modules that has it). */
function installedVersion(root: string, pkg: string): string {
  for (let dir = root; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', pkg, 'package.json');
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) throw new Error(`${pkg} is not installed for ${root}`);
  }
}

/** Module Federation's `shared` option for the app in `root`: each of SHARED_SINGLETONS, with its version. */
export function sharedSingletons(root: string): Record<string, SharedSingleton> {
  return Object.fromEntries(
    SHARED_SINGLETONS.map((pkg) => [
      pkg,
      { singleton: true, requiredVersion: `^${installedVersion(root, pkg)}`, strictVersion: STRICT.has(pkg) },
    ]),
  );
}

/**
 * The plugins of the shell and of every remote: React, Module Federation sharing SHARED_SINGLETONS (and the
 * shell's one federation runtime), the previous release's hashed files carried into each build, and brotli and
 * gzip siblings of its text files. `root` is the app's folder; an app with `exposes` is a remote.
 */
export function federatedReact(
  name: string,
  root: string,
  exposes?: Record<string, string>,
): RsbuildPlugin[] {
  return [
    pluginReact(),
    pluginModuleFederation({
      name,
      ...(exposes && { exposes }),
      shared: withSharedRouter(root, sharedSingletons(root)),
      // The singleton already loaded (the shell's) is the one every remote gets, and a remote whose required
      // version it does not meet is refused; 'version-first' would hand the remote its own newer copy instead,
      // and the page would run two Reacts.
      shareStrategy: 'loaded-first',
      dts: false,
      experiments: {
        // The apps run in browsers only: the runtime leaves out its Node.js loading code.
        optimization: { target: 'web' },
        // One Module Federation runtime on the page, the shell's: it hands it to the remotes, which leave their
        // own copy out of a release build (a remote's stand-alone development page has no shell to take it from).
        ...(exposes
          ? { externalRuntime: process.env.NODE_ENV === 'production' }
          : { provideExternalRuntime: true }),
      },
    }),
    pluginSharedRouter(root),
    pluginCarryPreviousRelease(),
    pluginPrecompress(),
  ];
}

/**
 * The singletons with 'react-router' built from the parts the apps use (router.ts), under the router's own
 * version (Module Federation would otherwise take the version of the package that holds that module).
 */
function withSharedRouter(root: string, shared: Record<string, SharedSingleton>) {
  const router = shared['react-router'];
  if (!router) return shared;
  const share = { ...router, import: SHARED_ROUTER_MODULE, version: installedVersion(root, 'react-router') };
  return { ...shared, 'react-router': share };
}

export interface RemoteOptions {
  /** The Module Federation name the shell loads it by, e.g. 'mf_feed'. */
  name: string;
  /** The app's folder (its rsbuild.config.ts's import.meta.dirname): the shared versions are its. */
  root: string;
  /** Exposed module name → source file, e.g. { './PublicSquare': './src/PublicSquare.tsx' }. */
  exposes: Record<string, string>;
  /** Title of the stand-alone development page, after 'Rotunda · '. */
  title: string;
  /** Port of the stand-alone development server (rsbuild dev). */
  port: number;
}

/** A micro-frontend's whole Rsbuild config: a Module Federation remote the gateway serves at /mf/<app>/. */
export function remoteConfig({ name, root, exposes, title, port }: RemoteOptions): RsbuildConfig {
  return {
    plugins: federatedReact(name, root, exposes),
    // 'auto' lets the remote find its chunks next to its manifest, wherever the gateway mounts it.
    output: { assetPrefix: 'auto' },
    html: { title: `Rotunda · ${title}` },
    server: { port },
  };
}
