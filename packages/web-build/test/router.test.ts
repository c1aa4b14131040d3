// The shared React Router (router.ts): it offers every name the apps import from 'react-router', each one
// present in the router's production build, so no screen finds a part of the router missing at run time.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SHARED_ROUTER_MODULE } from '../src/router.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const SOURCES = [
  'shell/src',
  'mf-feed/src',
  'mf-directory/src',
  'mf-organizations/src',
  'mf-profile/src',
  'packages/ui/src',
];

/** The values (not types) the apps' sources import from 'react-router'. */
function importedFromRouter(): Set<string> {
  const names = new Set<string>();
  for (const folder of SOURCES) {
    for (const file of readdirSync(join(repo, folder), { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(file)) continue;
      const text = readFileSync(join(repo, folder, file), 'utf8');
      for (const [, typeOnly, list] of text.matchAll(
        /import\s+(type\s+)?\{([^}]*)\}\s+from\s+'react-router'/g,
      )) {
        if (typeOnly) continue;
        for (const name of (list ?? '').split(',').map((part) => part.trim())) {
          if (name && !name.startsWith('type ')) names.add(name.split(/\s+as\s+/)[0] ?? name);
        }
      }
    }
  }
  return names;
}

/** The names react-router-shared.js re-exports. */
function sharedNames(): Set<string> {
  const text = readFileSync(SHARED_ROUTER_MODULE, 'utf8');
  const list = /export\s*\{([^}]*)\}/.exec(text)?.[1] ?? '';
  return new Set(
    list
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  );
}

describe('the shared React Router', () => {
  it('offers every name the apps import from react-router', () => {
    const imported = importedFromRouter();
    expect(imported.size).toBeGreaterThan(5);
    const missing = [...imported].filter((name) => !sharedNames().has(name));
    expect(missing).toEqual([]);
  });

  it('takes each of them from the router’s production build', async () => {
    const manifest = createRequire(join(repo, 'shell', 'package.json')).resolve('react-router/package.json');
    const production = (await import(join(dirname(manifest), 'dist', 'production', 'index.mjs'))) as Record<
      string,
      unknown
    >;
    for (const name of sharedNames()) expect(production[name], name).toBeDefined();
  });
});
