// Test helper: networkSettled(page), what waitForLoadState('networkidle') meant before the live unread count
// (no request of the page in flight for 500 ms) minus the live unread count's stream (ADR 0042), which a
// signed-in page holds open as long as it lives, so networkidle would wait for the token's expiry. It sees
// requests begun before the call because each browser context is tracked from its creation: the specs' `test`
// (./test.ts) tracks every context of its browser, and scripts outside the runner (screenshots.ts) call
// trackRequests on each context they make.
// Chromium never reports the end of a dedicated worker's script fetch when the page terminates the worker first:
// the captcha starts one worker per core and terminates them all once one has solved, so a worker still loading
// then stays "in flight" for ever. The solving worker's fetch of the same script did end, so a script request
// whose address has already loaded in the context is not waited for.
import type { BrowserContext, Page, Request } from '@playwright/test';

/** The live unread count's stream (docs/product.md#notifications). */
export const UNREAD_STREAM_PATH = '/api/notifications/stream';

/** How long the network must stay quiet, as networkidle counts it. */
const QUIET_MS = 500;
const POLL_MS = 50;

interface Tracked {
  /** Requests begun and neither finished nor failed yet, the stream excepted. */
  inFlight: Set<Request>;
  /** Addresses of scripts that have loaded, whose later fetches may be workers' that never report an end. */
  loadedScripts: Set<string>;
  /** When a request of each page last began or ended. */
  lastActivity: WeakMap<Page, number>;
}

const tracked = new WeakMap<BrowserContext, Tracked>();

const isUnreadStream = (request: Request) => new URL(request.url()).pathname === UNREAD_STREAM_PATH;

/** The page a request belongs to; none for a service worker's own requests. */
function pageOf(request: Request): Page | null {
  return request.serviceWorker() ? null : request.frame().page();
}

/** Records the requests of every page of the context, popups included; call it before the context's first page. */
export function trackRequests(context: BrowserContext): void {
  if (tracked.has(context)) return;
  const state: Tracked = { inFlight: new Set(), loadedScripts: new Set(), lastActivity: new WeakMap() };
  tracked.set(context, state);
  const touch = (request: Request) => {
    const page = pageOf(request);
    if (page) state.lastActivity.set(page, Date.now());
  };
  context.on('request', (request) => {
    if (isUnreadStream(request)) return;
    state.inFlight.add(request);
    touch(request);
  });
  const ended = (request: Request) => {
    if (state.inFlight.delete(request)) touch(request);
  };
  context.on('requestfinished', (request) => {
    if (request.resourceType() === 'script') state.loadedScripts.add(request.url());
    ended(request);
  });
  context.on('requestfailed', ended);
}

/**
 * Resolves once no request of the page other than the unread count's stream has been in flight for 500 ms,
 * counted from the later of this call and the last request's start or end; fails after `timeout` ms naming the
 * requests still open. Unlike networkidle, which fires once per document and then answers at once, each call
 * waits afresh, so it also waits for what an action after the first load started.
 */
export async function networkSettled(
  page: Page,
  { timeout = 30_000 }: { timeout?: number } = {},
): Promise<void> {
  const state = tracked.get(page.context());
  if (!state) {
    throw new Error(
      "networkSettled(page): this page's requests are not tracked; use `test` from tests/support/test.ts, or call trackRequests(context) before the context's first page",
    );
  }
  const called = Date.now();
  const awaited = (request: Request) =>
    pageOf(request) === page &&
    !(request.resourceType() === 'script' && state.loadedScripts.has(request.url()));
  const openOf = () => [...state.inFlight].filter(awaited);
  for (;;) {
    const now = Date.now();
    const open = openOf();
    const quietSince = Math.max(called, state.lastActivity.get(page) ?? 0);
    if (open.length === 0 && now - quietSince >= QUIET_MS) return;
    if (now - called > timeout) {
      const names = open.map((request) => `${request.method()} ${request.url()}`).join(', ');
      throw new Error(
        `networkSettled(page): still in flight after ${timeout} ms: ${names || 'none now, but requests kept beginning'}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
