// The shared Rsbuild configuration: the singletons list and a remote's config from its few settings.
import { describe, expect, it } from 'vitest';
import { remoteConfig, SHARED_SINGLETONS, shared } from '../src/index.ts';

describe('shared singletons', () => {
  it('shares React, the router, zustand and the session store as singletons', () => {
    expect(shared).toEqual({
      react: { singleton: true },
      'react-dom': { singleton: true },
      'react-router': { singleton: true },
      zustand: { singleton: true },
      '@rotunda/session': { singleton: true },
    });
    expect(Object.keys(shared)).toEqual([...SHARED_SINGLETONS]);
  });
});

describe('remoteConfig', () => {
  const config = remoteConfig({
    name: 'mf_feed',
    exposes: { './PublicSquare': './src/PublicSquare.tsx' },
    title: 'Public Square',
    port: 3001,
  });

  it('builds with React and Module Federation', () => {
    const names = (config.plugins ?? []).map((plugin) =>
      plugin && typeof plugin === 'object' && 'name' in plugin ? plugin.name : null,
    );
    expect(names).toEqual(['rsbuild:react', 'rsbuild:module-federation-enhanced']);
  });

  it('finds its chunks next to its manifest and titles and serves the stand-alone page', () => {
    expect(config.output?.assetPrefix).toBe('auto');
    expect(config.html?.title).toBe('Rotunda · Public Square');
    expect(config.server?.port).toBe(3001);
  });
});
