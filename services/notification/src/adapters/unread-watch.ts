// Changes of members' unread counts, as every replica hears them: one connection LISTENs on rotunda_unread
// (whichever replica made the change announced it in its transaction), reads the member's count and passes
// {userId, unreadCount} to every watcher this replica holds (the gateway workers' streams). The connection is
// opened again after a pause when it drops (packages/events' channel listener); closing ends every watcher, so
// streams end cleanly on shutdown.
import { listenToChannel } from '@rotunda/events';
import type { Logger } from '@rotunda/service-kit';
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

  const broadcast = async (userId: string) => {
    if (watchers.size === 0) return;
    try {
      const change = { userId, unreadCount: await unreadCount(userId) };
      for (const watcher of watchers) watcher.onChange(change);
    } catch (error) {
      logger.warn({ err: error, userId }, 'reading a changed unread count failed');
    }
  };

  const listener = listenToChannel({
    databaseUrl,
    logger,
    channel: UNREAD_CHANNEL,
    name: 'unread counts',
    applicationName: 'notification.unread',
    retryMs,
    onNotification: (userId) => {
      if (userId) void broadcast(userId);
    },
  });

  return {
    ready: listener.ready,
    watch(watcher) {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
    async close() {
      for (const watcher of watchers) watcher.onEnd();
      watchers.clear();
      await listener.close();
    },
  };
}
