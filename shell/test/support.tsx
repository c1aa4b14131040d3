// Test support of the shell: the whole route table rendered at a path (the micro-frontends replaced by
// named stand-ins), a fetch stand-in that answers by method and path and records what was sent, the
// gateway's refusal shape, which stand-in rendered at which path, JWT-shaped tokens, the signed-in member and what the store left in localStorage.
import { AUTH_STORAGE_KEY } from '@rotunda/session';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import { AppRoutes } from '../src/AppRoutes';

export { makeMember } from '@rotunda/session/testing';

/** Every render of a micro-frontend's stand-in: which module, at which path. */
export const standInRenders: { module: string; path: string }[] = [];

vi.mock('../src/remotes/federation', () => ({
  loadRemoteComponent: async (id: string) =>
    function RemoteStandIn() {
      standInRenders.push({ module: id, path: useLocation().pathname });
      return <h1>{id}</h1>;
    },
}));

function LocationProbe() {
  const { pathname, search } = useLocation();
  return (
    <output data-testid="location" data-search={search}>
      {pathname}
    </output>
  );
}

/**
 * Renders the route table at `path`, with a probe (test id 'location') showing the current path (and its query
 * as data-search).
 */
export function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
      <LocationProbe />
    </MemoryRouter>,
  );
}

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

/**
 * Stubs fetch to answer `routes` ('POST /auth/login'), with a fresh Response per call; GET /app-config.json
 * answers APP_CONFIG unless a route says otherwise, anything else 404. `sent` records every request.
 */
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
    if (!answer) return refusal('Not found', 404);
    return typeof answer === 'function' ? answer(body) : answer.clone();
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, sent };
}

/** Stubs fetch to fail as a browser does when the network is down. */
export function failFetch() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }),
  );
}

/** A refusal in the gateway's error shape: { errors: [{ msg }] }. */
export function refusal(msg: string, status: number, headers?: HeadersInit): Response {
  return Response.json({ errors: [{ msg }] }, { status, headers });
}

/** An unsigned JWT-shaped token with the chosen claims (the shell only reads `exp`). */
export function fakeJwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.signature`;
}

/** Seconds since the epoch, `offset` seconds from now. */
export function inSeconds(offset: number): number {
  return Math.floor(Date.now() / 1000) + offset;
}

/** What the session store keeps in localStorage ({} when nothing). */
export function storedAuth() {
  return JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? '{}');
}
