// Saves PNGs of the landing page, the public square and the 404 page at desktop and phone widths into
// e2e/screenshots/, to review how the screens look. Run with: node e2e/screenshots.ts (product running).
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { baseURL, chromiumLaunchOptions } from './playwright.config.ts';

const outDir = fileURLToPath(new URL('./screenshots/', import.meta.url));
const pages = [
  { name: 'landing', path: '/', ready: 'Register Today!' },
  { name: 'public-square', path: '/public-square', ready: 'Headlines' },
  { name: '404', path: '/no-such-page', ready: 'RETURN TO SESSION' },
];
const widths = [1280, 400];

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  for (const width of widths) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    for (const { name, path, ready } of pages) {
      await page.goto(new URL(path, baseURL).href);
      await page.getByText(ready, { exact: true }).first().waitFor();
      await page.waitForLoadState('networkidle');
      const file = `${outDir}${name}-${width}.png`;
      await page.screenshot({ path: file, fullPage: true });
      console.log(`saved ${file}`);
    }
    await page.close();
  }
} finally {
  await browser.close();
}
