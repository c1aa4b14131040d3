// Test helper: a fetch stand-in that answers by method and path ('POST /auth/login'), with a fresh Response
// per call, and records what was sent.
import { vi } from 'vitest';

export const APP_CONFIG = {
  accessEmail: 'access@rotunda.test',
  identity: { url: 'http://localhost', realm: 'rotunda', clientId: 'rotunda-web' },
};

export type Answer = Response | ((body: unknown) => Response | Promise<Response>);

export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
  headers: Headers;
}

/** Answers `routes`; GET /app-config.json answers APP_CONFIG unless a route says otherwise. */
export function routeFetch(routes: Record<string, Answer>) {
  const sent: SentRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const raw = init?.body;
    let body: unknown = raw;
    if (typeof raw === 'string') {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    } else if (raw instanceof URLSearchParams) {
      body = Object.fromEntries(raw);
    }
    sent.push({ method, path: url.pathname, body, headers: new Headers(init?.headers) });
    const key = `${method} ${url.pathname}`;
    const answer = routes[key] ?? (key === 'GET /app-config.json' ? Response.json(APP_CONFIG) : undefined);
    if (!answer) return Response.json({ errors: [{ msg: 'Not found' }] }, { status: 404 });
    return typeof answer === 'function' ? answer(body) : answer.clone();
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, sent };
}
