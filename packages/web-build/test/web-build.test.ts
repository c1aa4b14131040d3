// The shared Rsbuild configuration: the singletons with the versions each app requires, and a remote's config
// from its few settings.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { remoteConfig, SHARED_SINGLETONS, sharedSingletons } from '../src/index.ts';

const appRoot = (app: string) => fileURLToPath(new URL(`../../../${app}`, import.meta.url));
const pinned = (app: string) =>
  (
    JSON.parse(readFileSync(`${appRoot(app)}/package.json`, 'utf8')) as {
      dependencies: Record<string, string>;
    }
  ).dependencies;

describe('shared singletons', () => {
  it.each(['shell', 'mf-feed', 'mf-directory', 'mf-organizations', 'mf-profile'])(
    '%s shares React, the router, zustand and the session store, requiring the majors in its package.json',
    (app) => {
      const shared = sharedSingletons(appRoot(app));
      const deps = pinned(app);
      expect(Object.keys(shared)).toEqual([...SHARED_SINGLETONS]);
      expect(shared).toEqual({
        react: { singleton: true, requiredVersion: `^${deps.react}`, strictVersion: true },
        'react-dom': { singleton: true, requiredVersion: `^${deps['react-dom']}`, strictVersion: true },
        'react-router': { singleton: true, requiredVersion: `^${deps['react-router']}`, strictVersion: true },
        zustand: { singleton: true, requiredVersion: `^${deps.zustand}`, strictVersion: false },
        '@rotunda/session': { singleton: true, requiredVersion: '^0.1.0', strictVersion: true },
      });
    },
  );

  it('refuses to build an app that lacks a shared package', () => {
    expect(() => sharedSingletons('/')).toThrow('react is not installed for /');
  });
});

describe('remoteConfig', () => {
  const config = remoteConfig({
    name: 'mf_feed',
    root: appRoot('mf-feed'),
    exposes: { './PublicSquare': './src/PublicSquare.tsx' },
    title: 'Public Square',
    port: 3001,
  });

  it('builds with React and Module Federation, carrying the previous release and pre-compressing', () => {
    const names = (config.plugins ?? []).map((plugin) =>
      plugin && typeof plugin === 'object' && 'name' in plugin ? plugin.name : null,
    );
    expect(names).toEqual([
      'rsbuild:react',
      'rsbuild:module-federation-enhanced',
      'rotunda:shared-router',
      'rotunda:carry-previous-release',
      'rotunda:precompress',
    ]);
  });

  it('finds its chunks next to its manifest and titles and serves the stand-alone page', () => {
    expect(config.output?.assetPrefix).toBe('auto');
    expect(config.html?.title).toBe('Rotunda · Public Square');
    expect(config.server?.port).toBe(3001);
  });
});
