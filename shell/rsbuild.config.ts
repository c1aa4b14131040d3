// Build of the shell: the Module Federation host. It declares no remotes; it reads /remotes.json at run time
// so a micro-frontend can be redeployed without rebuilding the shell.
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';

export default defineConfig({
  plugins: [
    pluginReact(),
    pluginModuleFederation({
      name: 'shell',
      // The singletons every remote shares with the shell: one React, one router context and one session.
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
  html: {
    template: './index.html',
    title: 'Rotunda',
    favicon: './public/favicon.svg',
    meta: {
      description: "The directory and public square for California's policy community.",
      'theme-color': '#17365d',
    },
  },
  // Absolute asset URLs: deep links such as /organization/12 are answered with this same index.html.
  output: { assetPrefix: '/' },
  server: { port: 3000, historyApiFallback: true },
});
