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
  // CI runs the product, two browsers and the tests on two cores: a screen can take several seconds to load
  // there, so each wait allows that (a test still fails when what it waits for never comes).
  timeout: 60_000,
  expect: { timeout: 15_000 },
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
  // With E2E_BASE_URL the tests run against a deployment that is already up (E2E_MAILDEV_URL names its mail
  // inbox); otherwise they start the product (or reuse the one running on :8080).
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: 'npm start',
        cwd: '..',
        url: 'http://localhost:8080/healthz',
        reuseExistingServer: true,
        timeout: 240_000,
        stdout: 'pipe',
        // A short identity-provider session, so that session-lifetime.spec.ts sees one end within a minute
        // (20 s access tokens, 40 s idle, 45 s at most); process.env can override each.
        env: {
          AUTH_ACCESS_TOKEN_SECONDS: process.env.AUTH_ACCESS_TOKEN_SECONDS ?? '20',
          AUTH_SESSION_IDLE_SECONDS: process.env.AUTH_SESSION_IDLE_SECONDS ?? '40',
          AUTH_SESSION_MAX_SECONDS: process.env.AUTH_SESSION_MAX_SECONDS ?? '45',
        },
      },
});
