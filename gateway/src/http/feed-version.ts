// The watch on the post service's feed version, which moves after every committed write that changes a feed or
// comments page: each gateway worker asks for it every `intervalMs` (never two questions at a time) while its
// pages are read, and drops its pages when it moves. Pages are trusted only while the version is known from a
// question asked at most `staleAfterMs` ago; past that (the post service does not answer, or answers slowly) the
// watch is blind, the pages are dropped, and readers fall back (members uncached, visitors briefly cached). A
// worker that forwarded a write drops its pages at once, and tells the writer the version their write produced, so
// that their next read on any other worker, which may not have seen it yet, is fresh. Questions stop after
// `idleAfterMs` without a read, so an idle gateway costs the post service nothing; the next read starts them again.
import type { Logger } from '@rotunda/service-kit';
import { call, type ServiceClients } from '../grpc/clients.ts';

/** How often a worker asks while its pages are read: a change reaches every page within about this. */
export const FEED_VERSION_POLL_MS = 200;
/** Pages are trusted while the version was confirmed by a question asked this recently. */
export const FEED_VERSION_STALE_AFTER_MS = 1000;
/** Questions stop after this long without a read. */
export const FEED_VERSION_IDLE_AFTER_MS = 10_000;

export interface FeedVersionWatch {
  /** Are kept pages current? Called on every read: starts the questions when they had stopped. */
  watching(): boolean;
  /** Calls `listener` whenever kept pages must go (the version moved, the watch went blind or came back). */
  onChange(listener: () => void): void;
  /** This worker forwarded a write: its pages go now, before the write is answered. */
  changed(): void;
  /** The version now, asked outside the watch (after a write); undefined when the post service cannot say. */
  ask(): Promise<number | undefined>;
  /** Has this watch seen `version` or a later one? (A sequence: versions only grow.) */
  hasSeen(version: number): boolean;
  /** Stops asking. */
  close(): void;
}

export interface FeedVersionOptions {
  /** One question: the current version (only equality matters). */
  load: () => Promise<number>;
  logger: Logger;
  intervalMs?: number;
  staleAfterMs?: number;
  idleAfterMs?: number;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

export function watchFeedVersion({
  load,
  logger,
  intervalMs = FEED_VERSION_POLL_MS,
  staleAfterMs = FEED_VERSION_STALE_AFTER_MS,
  idleAfterMs = FEED_VERSION_IDLE_AFTER_MS,
  now = Date.now,
}: FeedVersionOptions): FeedVersionWatch {
  const listeners: (() => void)[] = [];
  let known: number | undefined;
  /** When the question that last answered `known` was asked. */
  let confirmedAt = Number.NEGATIVE_INFINITY;
  let lastRead = now();
  let asking = false;
  let failing = false;
  let closed = false;
  /** What watching() last answered: a change either way drops the pages. */
  let trusted = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const dropPages = () => {
    for (const listener of listeners) listener();
  };

  async function ask(): Promise<void> {
    const askedAt = now();
    try {
      const version = await load();
      if (known !== undefined && version !== known) dropPages();
      known = version;
      confirmedAt = askedAt;
      if (failing) logger.info('feed version: the post service answers again; feed pages are kept again');
      failing = false;
    } catch (error) {
      // Said once per outage, not five times a second.
      if (!failing)
        logger.warn(
          { err: error },
          'feed version: cannot ask the post service; members get fresh feed pages and visitors pages at most a second old until it answers',
        );
      failing = true;
    }
    if (closed) return;
    if (now() - lastRead > idleAfterMs) {
      // Idle: stop asking. What was learnt is forgotten, so the next read trusts nothing until an answer.
      asking = false;
      known = undefined;
      confirmedAt = Number.NEGATIVE_INFINITY;
      return;
    }
    timer = setTimeout(ask, intervalMs);
    // Never what keeps a process alive.
    timer.unref();
  }

  return {
    watching() {
      lastRead = now();
      if (!asking && !closed) {
        asking = true;
        void ask();
      }
      const current = known !== undefined && now() - confirmedAt <= staleAfterMs;
      if (current !== trusted) {
        trusted = current;
        // Pages kept while blind may be up to a second old; pages kept while watching are not trusted blind.
        dropPages();
      }
      return current;
    },
    onChange(listener) {
      listeners.push(listener);
    },
    changed: dropPages,
    ask: () => load().catch(() => undefined),
    hasSeen: (version) => known !== undefined && known >= version,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

/** The post service's GetFeedVersion, as a `load` for watchFeedVersion. */
export function feedVersionFromPost(
  clients: Pick<ServiceClients, 'post' | 'deadlineMs'>,
): () => Promise<number> {
  return async () =>
    (
      await call(
        'post',
        clients.post,
        clients.post.getFeedVersion,
        {},
        // An answer later than this could not be trusted anyway.
        { requestId: 'feed-version', deadlineMs: Math.min(clients.deadlineMs, FEED_VERSION_STALE_AFTER_MS) },
      )
    ).version;
}
