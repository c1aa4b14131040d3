// How Rotunda's browser runs launch Chromium: the browser tests (playwright.config.ts), the screenshots and the
// web benchmark (load/src/web.ts). Playwright's own browser download needs general internet; Debian's chromium
// works everywhere else, with the flags a container or a shared CI machine needs.
import { existsSync } from 'node:fs';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export const chromiumLaunchOptions: { executablePath?: string; args?: string[] } = existsSync(SYSTEM_CHROMIUM)
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
