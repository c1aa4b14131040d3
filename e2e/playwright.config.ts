// Browser tests against the running product (npm start at the repository root), in Chromium only.
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// Playwright's own browser download needs general internet; Debian's chromium works everywhere else.
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export const chromiumLaunchOptions = existsSync(SYSTEM_CHROMIUM)
  ? {
      executablePath: SYSTEM_CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    }
  : {};

export const baseURL = process.env.E2E_BASE_URL ?? 'http://localhost:8080';

export default defineConfig({
  testDir: 'tests',
  workers: 2,
  reporter: 'list',
  retries: 0,
  use: {
    baseURL,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions },
    },
  ],
  // With E2E_BASE_URL the tests run against a deployment that is already up; otherwise they start the
  // product (or reuse the one running on :8080).
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: 'npm start',
        cwd: '..',
        url: 'http://localhost:8080/healthz',
        reuseExistingServer: true,
        timeout: 240_000,
        stdout: 'pipe',
      },
});
