// Changes of members' unread counts, as every replica hears them: one connection LISTENs on rotunda_unread
// (whichever replica made the change announced it in its transaction), reads the member's count and passes
// {userId, unreadCount} to every watcher this replica holds (the gateway workers' streams). The connection is
// opened again after a pause when it drops; closing ends every watcher, so streams end cleanly on shutdown.
import type { Logger } from '@rotunda/service-kit';
import pg from 'pg';
import { UNREAD_CHANNEL } from './prisma-store.ts';

export interface UnreadChange {
  userId: string;
  unreadCount: number;
}

export interface Watcher {
  onChange: (change: UnreadChange) => void;
  /** The hub closed: the watcher's stream should end. */
  onEnd: () => void;
}

export interface UnreadWatch {
  /** Settles once the first connection listens. */
  ready: Promise<void>;
  /** Adds a watcher; answers the function that removes it. */
  watch(watcher: Watcher): () => void;
  close(): Promise<void>;
}

export function watchUnreadCounts(options: {
  databaseUrl: string;
  logger: Logger;
  unreadCount: (userId: string) => Promise<number>;
  retryMs?: number;
}): UnreadWatch {
  const { databaseUrl, logger, unreadCount, retryMs = 1000 } = options;
  const watchers = new Set<Watcher>();
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const broadcast = async (userId: string) => {
    if (watchers.size === 0) return;
    try {
      const change = { userId, unreadCount: await unreadCount(userId) };
      for (const watcher of watchers) watcher.onChange(change);
    } catch (error) {
      logger.warn({ err: error, userId }, 'reading a changed unread count failed');
    }
  };

  const reconnectLater = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, retryMs);
  };

  async function connect(): Promise<void> {
    const connection = new pg.Client({
      connectionString: databaseUrl,
      application_name: 'notification.unread',
    });
    client = connection;
    connection.on('error', (error) => {
      logger.warn({ err: error }, 'unread count listener lost its connection; reconnecting');
      void connection.end().catch(() => {});
      if (client === connection) client = undefined;
      reconnectLater();
    });
    connection.on('notification', (message) => {
      if (message.channel === UNREAD_CHANNEL && message.payload) void broadcast(message.payload);
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${UNREAD_CHANNEL}`);
      markReady();
    } catch (error) {
      if (closed) return;
      logger.warn({ err: error }, 'unread count listener could not connect; retrying');
      void connection.end().catch(() => {});
      if (client === connection) client = undefined;
      reconnectLater();
    }
  }

  void connect();
  return {
    ready,
    watch(watcher) {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      for (const watcher of watchers) watcher.onEnd();
      watchers.clear();
      await client?.end().catch(() => {});
    },
  };
}
