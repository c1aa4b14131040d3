// A stand-in for the gateway in the apps' component tests: fetch is stubbed with a handler per "METHOD path" (the
// path decoded, the query string ignored when matching), and every call is recorded with its URL, body and
// headers; an unknown endpoint answers 404 as the gateway does. Answer builders for JSON, 204 and refusals.
import { vi } from 'vitest';

export interface RecordedCall<Body = BodyInit | null | undefined> {
  method: string;
  url: URL;
  /** What was sent, as `readBody` made it (by default as sent). */
  body: Body;
  headers: Headers;
}

export type Handler<Call = RecordedCall> = (call: Call) => Response | Promise<Response>;

/** Stubs fetch with `routes`; answers the list the calls are recorded in, in order. */
export function stubFetch<Body = BodyInit | null | undefined>(
  routes: Record<string, Handler<RecordedCall<Body>>>,
  readBody: (body: BodyInit | null | undefined) => Body = (body) => body as Body,
): RecordedCall<Body>[] {
  const calls: RecordedCall<Body>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://rotunda.test');
      const call = {
        method: init.method ?? 'GET',
        url,
        body: readBody(init.body),
        headers: new Headers(init.headers),
      };
      calls.push(call);
      const handler = routes[`${call.method} ${decodeURIComponent(url.pathname)}`];
      if (!handler) return Response.json({ errors: [{ msg: 'No such endpoint' }] }, { status: 404 });
      return handler(call);
    }),
  );
  return calls;
}

export const json = (body: unknown, status = 200) => Response.json(body, { status });
export const noContent = () => new Response(null, { status: 204 });
export const refusal = (msg: string, status = 400) => Response.json({ errors: [{ msg }] }, { status });
