// Serves the shell and each micro-frontend's build on the gateway's origin (the one-machine default):
// hashed assets (everything under a build's static/, the previous release's included) cached for a year,
// entry points (HTML, manifests, release-assets.json) revalidated every time, and the remotes config that
// lets the shell load each remote at run time.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Router } from 'express';

export const REMOTES = {
  mf_feed: 'feed',
  mf_directory: 'directory',
  mf_organizations: 'organizations',
  mf_profile: 'profile',
} as const;

function staticFolder(path: string) {
  const hashed = join(path, 'static', '/');
  return express.static(path, {
    index: false,
    setHeaders(res, file) {
      res.setHeader(
        'Cache-Control',
        file.startsWith(hashed) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
}

export function remotesConfig(remotesConfigPath?: string): Record<string, string> {
  if (remotesConfigPath) return JSON.parse(readFileSync(remotesConfigPath, 'utf8'));
  return Object.fromEntries(
    Object.entries(REMOTES).map(([name, folder]) => [name, `/mf/${folder}/mf-manifest.json`]),
  );
}

export function webBuildsPresent(webRoot: string): boolean {
  return ['shell', ...Object.values(REMOTES).map((folder) => `mf-${folder}`)].every((app) =>
    existsSync(join(webRoot, app, 'dist', app === 'shell' ? 'index.html' : 'mf-manifest.json')),
  );
}

export function webRouter(webRoot: string, remotesConfigPath?: string): Router {
  const router = express.Router();
  const remotes = remotesConfig(remotesConfigPath);
  router.get('/remotes.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(remotes);
  });
  for (const folder of Object.values(REMOTES)) {
    router.use(`/mf/${folder}`, staticFolder(join(webRoot, `mf-${folder}`, 'dist')));
  }
  const shell = join(webRoot, 'shell', 'dist');
  router.use(staticFolder(shell));
  // Every other page is the shell's: its router shows the screen, or the 404 page.
  router.get(/.*/, (req, res, next) => {
    if (!req.accepts('html')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(shell, 'index.html'), (error) => error && next(error));
  });
  return router;
}
