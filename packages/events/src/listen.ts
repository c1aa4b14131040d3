// Listening for changes. One dedicated connection runs LISTEN; when it drops it is opened again after a pause.
// Every time it is (re)established, `onConnected` runs first so the consumer can copy the owner's current
// records (it may have missed announcements while it was not listening); changes heard meanwhile wait their
// turn, so a change is always applied after the copy that might predate it.
import type { Logger } from '@rotunda/service-kit';
import pg from 'pg';
import { CHANGES_CHANNEL, type Change, parseChange } from './changes.ts';

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
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  // One queue for everything a connection does, so changes apply in the order PostgreSQL delivered them.
  let queue: Promise<void> = Promise.resolve();
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const enqueue = (work: () => Promise<void> | void) => {
    queue = queue.then(work).catch((error: unknown) => {
      logger.error({ err: error }, 'applying a change failed');
    });
    return queue;
  };

  const reconnectLater = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, retryMs);
  };

  async function connect(): Promise<void> {
    const connection = new pg.Client({ connectionString: databaseUrl });
    client = connection;
    connection.on('error', (error) => {
      logger.warn({ err: error }, 'change listener connection lost; reconnecting');
      void connection.end().catch(() => {});
      if (client === connection) client = undefined;
      reconnectLater();
    });
    connection.on('notification', (message) => {
      if (message.channel !== CHANGES_CHANNEL) return;
      const change = parseChange(message.payload);
      if (change) void enqueue(() => onChange(change));
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${CHANGES_CHANNEL}`);
      await enqueue(async () => {
        try {
          await onConnected?.();
        } catch (error) {
          // Without the copy the consumer may hold stale names: start over on a new connection.
          logger.warn({ err: error }, 'catching up on changes failed; retrying');
          connection.emit('error', error);
          return;
        }
        markReady();
      });
    } catch (error) {
      if (closed) return;
      logger.warn({ err: error }, 'change listener could not connect; retrying');
      void connection.end().catch(() => {});
      if (client === connection) client = undefined;
      reconnectLater();
    }
  }

  void connect();
  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
      await queue;
    },
  };
}
