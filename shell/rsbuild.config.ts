// Build of the shell: the Module Federation host. It declares no remotes; it reads /remotes.json at run time
// so a micro-frontend can be redeployed without rebuilding the shell.

import { federatedReact } from '@rotunda/web-build';
import { defineConfig } from '@rsbuild/core';

export default defineConfig({
  // React and Module Federation with the singletons every remote shares with the shell.
  plugins: federatedReact('shell', import.meta.dirname),
  html: {
    template: './index.html',
    title: 'Rotunda',
    favicon: './public/favicon.svg',
    meta: {
      description: "The directory and public square for California's policy community.",
      'theme-color': '#17365d',
    },
  },
  // ALTCHA's proof-of-work worker scripts are emitted as files and imported as their URL (see
  // src/auth/altcha-setup.ts): bundling them would wrap them in the Module Federation runtime.
  source: { assetsInclude: /altcha[\\/]dist[\\/]workers[\\/].+\.js$/ },
  // Absolute asset URLs: deep links such as /organization/12 are answered with this same index.html.
  output: { assetPrefix: '/' },
  server: { port: 3000, historyApiFallback: true },
});
