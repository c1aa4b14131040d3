// The Rsbuild configuration of the front end in one place: React plus Module Federation with the singletons
// the shell and every remote share, and a remote's whole config from its name, screens, title and dev port.
// Rsbuild loads each app's rsbuild.config.ts, and this file with it, in Node.
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import type { RsbuildConfig, RsbuildPlugin } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';

/** Singletons the shell and every remote share: one React, one router context and one session store. */
export const SHARED_SINGLETONS = [
  'react',
  'react-dom',
  'react-router',
  'zustand',
  '@rotunda/session',
] as const;

/** Module Federation's `shared` option: each of SHARED_SINGLETONS as a singleton. */
export const shared: Record<string, { singleton: true }> = Object.fromEntries(
  SHARED_SINGLETONS.map((pkg) => [pkg, { singleton: true }]),
);

/** The plugins of the shell and of every remote: React, and Module Federation sharing SHARED_SINGLETONS. */
export function federatedReact(name: string, exposes?: Record<string, string>): RsbuildPlugin[] {
  return [
    pluginReact(),
    pluginModuleFederation({
      name,
      ...(exposes && { exposes }),
      shared,
      dts: false,
    }),
  ];
}

export interface RemoteOptions {
  /** The Module Federation name the shell loads it by, e.g. 'mf_feed'. */
  name: string;
  /** Exposed module name → source file, e.g. { './PublicSquare': './src/PublicSquare.tsx' }. */
  exposes: Record<string, string>;
  /** Title of the stand-alone development page, after 'Rotunda · '. */
  title: string;
  /** Port of the stand-alone development server (rsbuild dev). */
  port: number;
}

/** A micro-frontend's whole Rsbuild config: a Module Federation remote the gateway serves at /mf/<app>/. */
export function remoteConfig({ name, exposes, title, port }: RemoteOptions): RsbuildConfig {
  return {
    plugins: federatedReact(name, exposes),
    // 'auto' lets the remote find its chunks next to its manifest, wherever the gateway mounts it.
    output: { assetPrefix: 'auto' },
    html: { title: `Rotunda · ${title}` },
    server: { port },
  };
}
