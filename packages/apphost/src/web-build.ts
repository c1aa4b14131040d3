// Builds the shell and the micro-frontends that have no build yet (a fresh clone), one at a time.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, WEB_APPS } from './config.ts';

export function missingWebBuilds(): string[] {
  return WEB_APPS.filter(
    (app) => !existsSync(join(REPO_ROOT, app, 'dist', app === 'shell' ? 'index.html' : 'mf-manifest.json')),
  );
}

export async function buildWebApps(apps: readonly string[], print: (text: string) => void): Promise<void> {
  for (const app of apps) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const child = spawn('npm', ['run', 'build', '-w', app], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`Building ${app} failed:\n${output.slice(-4000)}`)),
      );
    });
    print(`  ✓ built ${app} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
}
