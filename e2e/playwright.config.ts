// Browser tests against the running product (npm start at the repository root), in Chromium only.
import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { laneOf } from './lanes.ts';

const lane = laneOf(process.env.E2E_LANE);
export const baseURL = process.env.E2E_BASE_URL ?? lane.baseURL;
// The specs' helpers read the lane's mail inbox and data folder from here (set before any spec is loaded).
process.env.E2E_MAILDEV_URL ??= lane.mailURL;
process.env.E2E_DATA_DIR ??= lane.dataDir;

/**
 * The per-member allowances of the product these tests start, raised (ADR 0038): the authorization matrix reads
 * every profile it checks as its one contributor, as the oracle of what each call changed (about a hundred reads
 * within a minute, far past the 60 a person browsing never reaches), and the demo accounts upload logos and
 * pictures in several specs, in every run against the same product within the hour. The allowances themselves
 * are proven by the auth service's and the gateway's tests.
 */
const E2E_ALLOWANCES = { AUTH_PROFILE_READS_PER_MINUTE: '1000', AUTH_IMAGE_UPLOADS_PER_HOUR: '1000' };

export default defineConfig({
  testDir: 'tests',
  // Agency sign-in needs Keycloak and the realms that play agencies: \`npm run test:engines\` runs it there.
  testIgnore: process.env.E2E_IDENTITY_PROVIDER === 'keycloak' ? [] : ['**/agency-sign-in.spec.ts'],
  // One browser at a time: on two cores a second one only slows both (and the product) down.
  workers: 1,
  reporter: 'list',
  retries: 0,
  // Each lane its own: a run empties its folder as it starts, which must not remove another lane's traces.
  outputDir: lane.outputDir,
  // CI runs the product, two browsers and the tests on two cores: a screen can take several seconds to load
  // there, so each wait allows that (a test still fails when what it waits for never comes).
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    // CI keeps only the console output, where a trace is of no use: recording one costs every test CPU time.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions },
    },
  ],
  // With E2E_BASE_URL the tests run against a deployment that is already up (E2E_MAILDEV_URL names its mail
  // inbox); otherwise they start the lane's product (or reuse the one running on its port, :8080 for lane 0).
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: 'npm start',
        cwd: '..',
        url: `${lane.baseURL}/healthz`,
        reuseExistingServer: true,
        timeout: 240_000,
        stdout: 'pipe',
        // Short access tokens, so that session-lifetime.spec.ts sees a tab learn of its ended session within
        // seconds; sessions themselves keep their defaults, longer than any test.
        env: {
          AUTH_ACCESS_TOKEN_SECONDS: process.env.AUTH_ACCESS_TOKEN_SECONDS ?? '20',
          ...E2E_ALLOWANCES,
          ...lane.productEnv,
        },
      },
});
