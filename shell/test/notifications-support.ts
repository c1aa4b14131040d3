// Test support of the notifications screens: server-sent-event streams the test writes to (a fake fetch's
// ReadableStream), notifications as GET /api/notifications lists them, and a fetch stand-in that answers that
// list by its query (before, limit) on top of routeFetch's routes.
import type { Mock } from 'vitest';
import { type Answer, routeFetch } from './support';

/** One open stream: the test sends counts down it, or ends it. */
export interface FakeStream {
  /** The x-auth-token it was opened with. */
  token: string | null;
  send: (count: number) => void;
  end: () => void;
}

/** Answers GET /api/notifications/stream with a new FakeStream each time, listed in `streams`. */
export function streamAnswer(streams: FakeStream[]) {
  const encoder = new TextEncoder();
  return (token: string | null) => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    streams.push({
      token,
      // Split in two writes, as a network may deliver it.
      send: (count) => {
        const event = `event: unread\ndata: {"unread_count":${count}}\n\n`;
        controller.enqueue(encoder.encode(event.slice(0, 12)));
        controller.enqueue(encoder.encode(event.slice(12)));
      },
      end: () => controller.close(),
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
}

export interface ItemOptions {
  read?: boolean;
  type?: 'post' | 'comment' | 'profile';
  target?: number;
  post_id?: number;
  text?: string;
  actor?: boolean;
}

/** A notification as the gateway lists it. */
export function item(id: number, options: ItemOptions = {}) {
  const { read = false, type = 'post', target = 100 + id, post_id, text, actor = true } = options;
  return {
    id,
    kind: type === 'profile' ? 'claim' : 'comment',
    created_at: new Date(Date.now() - id * 60_000).toISOString(),
    read,
    actor: actor ? { profile_id: 7, first_name: 'Dana', last_name: 'Lee' } : null,
    target: post_id === undefined ? { type, id: target } : { type, id: target, post_id },
    text: text ?? `Dana Lee commented on your post number ${id}`,
  };
}

export type ListAnswer = (query: URLSearchParams) => Response;

/**
 * routeFetch with GET /api/notifications answered by `list` (given the query) and the stream by `streams`;
 * `listed` records each list query.
 */
export function notificationsFetch(routes: Record<string, Answer>, list: ListAnswer, streams: FakeStream[]) {
  const stub = routeFetch(routes);
  const routed = stub.fetchMock.getMockImplementation() as (
    input: RequestInfo | URL,
    init?: RequestInit,
  ) => Promise<Response>;
  const listed: URLSearchParams[] = [];
  const openStream = streamAnswer(streams);
  (stub.fetchMock as Mock).mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method === 'GET' && url.pathname === '/api/notifications/stream') {
      return openStream(new Headers(init?.headers).get('x-auth-token'));
    }
    if (method === 'GET' && url.pathname === '/api/notifications') {
      listed.push(url.searchParams);
      return list(url.searchParams);
    }
    return routed(input, init);
  });
  return { ...stub, listed };
}
