// How the apps share React Router: the shared 'react-router' module is react-router-shared.js, the parts the
// apps use from the router's production build, instead of the whole development build (about 61 KB gzipped
// less on every page). The share keeps the router's own version, so the version rules of the shared
// singletons apply unchanged (index.ts sets the share's `import` and `version`).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RsbuildPlugin } from '@rsbuild/core';

/** The module the shared 'react-router' is built from. */
export const SHARED_ROUTER_MODULE = join(import.meta.dirname, 'react-router-shared.js');

/** The name react-router-shared.js imports the production build by. */
const PRODUCTION_ALIAS = '@rotunda/react-router-production';

/** The router's production build as installed for the app in `root`. */
function productionEntry(root: string): string {
  const manifest = createRequire(join(root, 'package.json')).resolve('react-router/package.json');
  return join(dirname(manifest), 'dist', 'production', 'index.mjs');
}

/** Rsbuild plugin: resolves the alias react-router-shared.js imports to the app's router production build. */
export function pluginSharedRouter(root: string): RsbuildPlugin {
  return {
    name: 'rotunda:shared-router',
    setup(api) {
      api.modifyRsbuildConfig((config, { mergeRsbuildConfig }) =>
        mergeRsbuildConfig(config, {
          resolve: { alias: { [`${PRODUCTION_ALIAS}$`]: productionEntry(root) } },
        }),
      );
    },
  };
}
