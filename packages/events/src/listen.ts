// Listening for changes on a channel listener (channel.ts): one dedicated connection, opened again after a pause
// when it drops. Every time it is (re)established, `onConnected` runs first so the consumer can copy the owner's
// current records (it may have missed announcements while it was not listening); changes heard meanwhile wait
// their turn, so a change is always applied after the copy that might predate it.
import type { Logger } from '@rotunda/service-kit';
import { CHANGES_CHANNEL, type Change, parseChange } from './changes.ts';
import { listenToChannel } from './channel.ts';

export interface ChangeListenerOptions {
  databaseUrl: string;
  logger: Logger;
  onChange: (change: Change) => Promise<void> | void;
  /** Runs on every (re)connection before any change heard on it; a failure closes the connection to retry. */
  onConnected?: () => Promise<void> | void;
  /** Pause before reconnecting; default 1 s. */
  retryMs?: number;
}

export interface ChangeListener {
  /** Settles once the first connection listens and its `onConnected` has run. */
  ready: Promise<void>;
  close: () => Promise<void>;
}

export function listenForChanges({
  databaseUrl,
  logger,
  onChange,
  onConnected,
  retryMs = 1000,
}: ChangeListenerOptions): ChangeListener {
  // One queue for everything a connection does, so changes apply in the order PostgreSQL delivered them.
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (work: () => Promise<void> | void) => {
    queue = queue.then(work).catch((error: unknown) => {
      logger.error({ err: error }, 'applying a change failed');
    });
  };

  const listener = listenToChannel({
    databaseUrl,
    logger,
    channel: CHANGES_CHANNEL,
    name: 'changes',
    retryMs,
    onNotification: (payload) => {
      const change = parseChange(payload);
      if (change) enqueue(() => onChange(change));
    },
    // Without the copy the consumer may hold stale names: a failure starts over on a new connection.
    onListening: () =>
      new Promise<void>((resolve, reject) => {
        queue = queue.then(async () => {
          try {
            await onConnected?.();
            resolve();
          } catch (error) {
            reject(error);
          }
        });
      }),
  });

  return {
    ready: listener.ready,
    async close() {
      await listener.close();
      await queue;
    },
  };
}
