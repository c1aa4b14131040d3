// The signed-in member's unread notification count, live (docs/product.md#notifications):
// asked once at sign-in (GET /api/notifications), then kept by one server-sent-event stream per tab
// (GET /api/notifications/stream). EventSource cannot send the member's token in a header, so the stream is
// read with fetch and the platform's TextDecoderStream. A stream that ends or fails is opened again after an
// exponential, jittered wait (1 s doubling to 30 s); a renewed token opens it again at once with the new
// token; signing out stops it.
import { sessionStore, useUser } from '@rotunda/session';
import { send } from '@rotunda/ui';
import { useEffect } from 'react';
import { create } from 'zustand';
import { fetchNotifications, unreadCountOf } from './api';

export const STREAM_PATH = '/api/notifications/stream';
export const RECONNECT_FIRST_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;

interface UnreadState {
  /** Unread notifications of the signed-in member; null until known or when nobody is signed in. */
  count: number | null;
}

export const useUnread = create<UnreadState>()(() => ({ count: null }));

/** The wait before reconnection attempt `attempt` (0 first): half the doubled base, plus up to the other half. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** attempt);
  return base / 2 + (random() * base) / 2;
}

/** Reads a text/event-stream body to its end, handing each event's data (its `data:` lines joined) to onData. */
export async function readEventData(body: ReadableStream<BufferSource>, onData: (data: string) => void) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  let data: string[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    pending += value;
    const lines = pending.split(/\r\n|\r|\n/);
    // The last piece may be a line still arriving.
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0) onData(data.join('\n'));
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
    }
  }
}

export interface UnreadWatchOptions {
  /** The member's current access token, or null once signed out. */
  token: () => Promise<string | null>;
  /** Calls back whenever the member's access token changes; answers how to stop. */
  onTokenChange: (listener: () => void) => () => void;
  onCount: (count: number) => void;
  random?: () => number;
}

/** Keeps one stream open until the answered stop function is called. */
export function watchUnreadCount({ token, onTokenChange, onCount, random }: UnreadWatchOptions): () => void {
  let stopped = false;
  let connection: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;

  const connect = async () => {
    timer = undefined;
    const mine = new AbortController();
    connection = mine;
    try {
      const current = await token();
      if (mine.signal.aborted || !current) return;
      const response = await send('GET', STREAM_PATH, {
        accept: 'text/event-stream',
        token: current,
        signal: mine.signal,
      });
      if (!response.ok || !response.body) throw new Error(`${STREAM_PATH} answered ${response.status}`);
      await readEventData(response.body, (data) => {
        let count: number | null = null;
        try {
          count = unreadCountOf(JSON.parse(data));
        } catch {
          // Not JSON (a comment or keep-alive the server might add): nothing to count.
        }
        if (count === null) return;
        attempt = 0;
        onCount(count);
      });
    } catch (error) {
      if (mine.signal.aborted) return;
      console.warn('The unread count stream failed; will reconnect', error);
    }
    if (mine.signal.aborted || stopped) return;
    timer = setTimeout(() => void connect(), reconnectDelay(attempt, random));
    attempt += 1;
  };

  const restart = () => {
    if (stopped) return;
    connection?.abort();
    clearTimeout(timer);
    attempt = 0;
    void connect();
  };

  const stopListening = onTokenChange(restart);
  void connect();
  return () => {
    stopped = true;
    stopListening();
    connection?.abort();
    clearTimeout(timer);
  };
}

/** The session's token changes (a renewal, here or in another tab), not its other fields. */
function onSessionTokenChange(listener: () => void): () => void {
  return sessionStore.subscribe((state, previous) => {
    if (state.token && state.token !== previous.token) listener();
  });
}

/** Keeps useUnread current for the signed-in member; the layout calls it once. */
export function useUnreadWatch(): void {
  const userId = useUser()?.user_id ?? null;
  useEffect(() => {
    useUnread.setState({ count: null });
    if (!userId) return;
    const controller = new AbortController();
    let streamed = false;
    // One item is enough: only the count is wanted here.
    fetchNotifications({ limit: 1, signal: controller.signal }).then(
      // The stream's count, if it came first, is the newer one.
      (page) => streamed || useUnread.setState({ count: page.unread_count }),
      (error: unknown) => {
        if (!controller.signal.aborted) console.warn('Could not read the unread count', error);
      },
    );
    const stop = watchUnreadCount({
      // The token as it is, never renewed for the stream's sake: an idle member's session must still end on
      // time. An expired one is refused and tried again; the keeper's next renewal reconnects at once.
      token: async () => sessionStore.getState().token,
      onTokenChange: onSessionTokenChange,
      onCount: (count) => {
        streamed = true;
        useUnread.setState({ count });
      },
    });
    return () => {
      controller.abort();
      stop();
      useUnread.setState({ count: null });
    };
  }, [userId]);
}
