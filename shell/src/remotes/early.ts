// Early data: the first data request of a visitor's screen, started by the entry (index.ts) alongside the
// shell's and the remote's code instead of after the remote has rendered, which on a slow phone is most of a
// second later. The request is handed over in a map on the window under EARLY_REQUESTS, keyed by
// '<method> <path> <body>'; the remote takes its entry once, for exactly that request, and only when it
// would send it without a token (mf-feed's api.ts), and otherwise makes its own request. Members are not
// served early: their requests carry a fresh token the entry does not have.
import { FIRST_FEED_ELEMENT_ID } from '@rotunda/rules';

/** The window property the early requests are handed over in (mf-feed's api.ts reads it). */
export const EARLY_REQUESTS = '__rotundaEarlyRequests';

/** Where @rotunda/session keeps the session (its AUTH_STORAGE_KEY; the entry cannot load that module yet). */
export const SESSION_STORAGE_KEY = 'auth';

export interface EarlyRequest {
  method: 'POST';
  path: string;
  /** The JSON body exactly as the remote sends it. */
  body: string;
}

type EarlyRequests = Map<string, Promise<Response>>;

/** Whether the stored session is a signed-in one. */
function signedIn(storage: Storage): boolean {
  try {
    const stored = JSON.parse(storage.getItem(SESSION_STORAGE_KEY) ?? 'null') as {
      isAuthenticated?: unknown;
    };
    return stored?.isAuthenticated === true;
  } catch {
    return false;
  }
}

/**
 * The screen's early request for a visitor, or null (no screen, no early request, someone signed in, or the page
 * the gateway drew already carries the answer, which mf-feed starts from).
 */
export function earlyRequestFor(
  screen: { early?: EarlyRequest } | null,
  storage: Storage,
  page: Pick<Document, 'getElementById'> = document,
): EarlyRequest | null {
  if (!screen?.early || signedIn(storage) || page.getElementById(FIRST_FEED_ELEMENT_ID)) return null;
  return screen.early;
}

/** Starts `request` and hands its answer over under its key; a failure is left to the remote's own request. */
export function startEarlyRequest(request: EarlyRequest, fetcher: typeof fetch = fetch): void {
  const answer = fetcher(request.path, {
    method: request.method,
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: request.body,
  });
  answer.catch(() => {});
  const holder = globalThis as unknown as Record<typeof EARLY_REQUESTS, EarlyRequests | undefined>;
  holder[EARLY_REQUESTS] ??= new Map();
  holder[EARLY_REQUESTS].set(`${request.method} ${request.path} ${request.body}`, answer);
}
