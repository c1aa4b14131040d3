// The feed version: one number, shared by every replica, that moves after each write that changes what a feed or
// comments page shows, once it has committed and is in the search index (moved inside the write's transaction, a
// reader could load the page before the commit under the new version and keep it as current). The gateways keep
// pages until it moves. Read counts are too frequent to move it each: they move it at most once a `coalesceMs`.
import type { FeedVersionStore } from './ports.ts';

export interface FeedVersion {
  /** The current version (GetFeedVersion). */
  current(): Promise<number>;
  /** After a write that changes a page has committed: moves the version (a failure is retried by the ticker). */
  changed(): Promise<void>;
  /** A read was counted: the version moves within `coalesceMs`. */
  readCounted(): void;
  /**
   * Moves the version once (heals a replica that stopped between a commit and its move), then starts the ticker
   * that moves it for counted reads and failed moves. `onError` hears each failed move.
   */
  start(onError: (error: unknown) => void): Promise<void>;
  stop(): void;
}

export function createFeedVersion(store: FeedVersionStore, coalesceMs = 1000): FeedVersion {
  /** Reads counted or a move failed since the last move: the ticker moves it. */
  let pending = false;
  let report: (error: unknown) => void = () => {};
  let ticker: ReturnType<typeof setInterval> | undefined;
  const move = async () => {
    try {
      await store.bump();
    } catch (error) {
      // The write itself committed: answering an error would invite a second one. The ticker tries again.
      pending = true;
      report(error);
    }
  };
  return {
    current: () => store.current(),
    changed: move,
    readCounted() {
      pending = true;
    },
    async start(onError) {
      report = onError;
      await move();
      ticker = setInterval(() => {
        if (!pending) return;
        pending = false;
        void move();
      }, coalesceMs);
      ticker.unref();
    },
    stop() {
      clearInterval(ticker);
    },
  };
}
