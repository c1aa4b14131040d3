// Live unread-count streams (GET /api/notifications/stream) held open as the web app holds them: each opened
// again after a short pause when the gateway cuts it, as EventSource does. Counts the cuts, the reconnections, the
// refusals, and the gap from a cut to the first count on the stream opened again.
import { STREAM_RECONNECT_MS } from './plan.ts';

export interface StreamFigures {
  opened: number;
  cut: number;
  reconnected: number;
  /** Attempts to open a stream again that were answered with an error or no answer, by what was seen. */
  refused: Map<string, number>;
  /** From each cut to the first count on the stream opened again, ms. */
  gapsMs: number[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function holdStreams(base: string, token: string, count: number) {
  const figures: StreamFigures = { opened: 0, cut: 0, reconnected: 0, refused: new Map(), gapsMs: [] };
  const refuse = (what: string) => figures.refused.set(what, (figures.refused.get(what) ?? 0) + 1);
  let stopping = false;
  const open = new Set<AbortController>();

  const hold = async () => {
    let cutAt: number | undefined;
    while (!stopping) {
      const controller = new AbortController();
      open.add(controller);
      /** Answered 200: an error from here on is the stream cut, not the attempt refused. */
      let answered = false;
      try {
        const res = await fetch(`${base}/api/notifications/stream`, {
          headers: { 'x-auth-token': token, accept: 'text/event-stream' },
          signal: controller.signal,
        });
        if (!res.ok || !res.body) {
          refuse(`${res.status}: ${(await res.text()).slice(0, 100)}`);
        } else {
          answered = true;
          const reader = res.body.getReader();
          let counted = false;
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            if (counted || !new TextDecoder().decode(value).includes('unread_count')) continue;
            counted = true;
            if (cutAt === undefined) figures.opened++;
            else {
              figures.reconnected++;
              figures.gapsMs.push(performance.now() - cutAt);
              cutAt = undefined;
            }
          }
        }
      } catch (error) {
        if (!stopping && !answered) refuse(`no answer: ${(error as Error).message}`);
      } finally {
        open.delete(controller);
      }
      if (stopping) break;
      if (cutAt === undefined) {
        cutAt = performance.now();
        figures.cut++;
      }
      await sleep(STREAM_RECONNECT_MS);
    }
  };
  const held = Promise.all(Array.from({ length: count }, hold));
  return {
    figures,
    stop: async () => {
      stopping = true;
      for (const controller of open) controller.abort();
      await held;
    },
  };
}
