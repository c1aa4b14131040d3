// Build of the directory micro-frontend: a Module Federation remote the gateway serves at /mf/directory/.
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';

export default defineConfig({
  plugins: [
    pluginReact(),
    pluginModuleFederation({
      name: 'mf_directory',
      exposes: { './Directory': './src/Directory.tsx' },
      // Singletons shared with the shell: one React, one router context and one session store.
      shared: {
        react: { singleton: true },
        'react-dom': { singleton: true },
        'react-router': { singleton: true },
        zustand: { singleton: true },
        '@rotunda/session': { singleton: true },
      },
      dts: false,
    }),
  ],
  // 'auto' lets the remote find its chunks next to its manifest, wherever the gateway mounts it.
  output: { assetPrefix: 'auto' },
  html: { title: 'Rotunda · Directory' },
  server: { port: 3002 },
});
