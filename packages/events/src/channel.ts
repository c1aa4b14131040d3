// One PostgreSQL channel heard on a dedicated connection that comes back: LISTEN, hand each notification's payload
// on, and when the connection fails, ends or never opens, open a new one after a pause. Notifications sent while
// no connection listened are lost, so `onListening` runs on every (re)connection for the listener to catch up.
// The change listeners, the event consumers' wake-ups and the notification service's unread counts stand on it.
import type { Logger } from '@rotunda/service-kit';
import pg from 'pg';

export interface ChannelListenerOptions {
  databaseUrl: string;
  logger: Logger;
  channel: string;
  /** Names the listener in its logs, e.g. `unread counts`. */
  name: string;
  /** Names its connection in pg_stat_activity, e.g. `notification.unread`; unnamed by default. */
  applicationName?: string;
  /** Each notification's payload, in the order PostgreSQL delivered them. */
  onNotification: (payload: string) => void;
  /** Runs once LISTEN holds on each (re)connection; a throw closes the connection to try again. */
  onListening?: () => Promise<void>;
  /** Pause before reconnecting; default 1 s. */
  retryMs?: number;
  /** The pause doubles after each failure up to this (reset once listening); default `retryMs`, no growth. */
  maxRetryMs?: number;
}

export interface ChannelListener {
  /** Settles once a connection listens and its `onListening` has run. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function listenToChannel({
  databaseUrl,
  logger,
  channel,
  name,
  applicationName,
  onNotification,
  onListening,
  retryMs = 1000,
  maxRetryMs = retryMs,
}: ChannelListenerOptions): ChannelListener {
  // Spliced into LISTEN unquoted, as the channels are named (and as pg_stat_activity then shows them).
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let pause = retryMs;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const reconnectLater = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, pause);
    pause = Math.min(pause * 2, maxRetryMs);
  };

  async function connect(): Promise<void> {
    const connection = new pg.Client({
      connectionString: databaseUrl,
      ...(applicationName ? { application_name: applicationName } : {}),
    });
    client = connection;
    // Once per connection, however it ends: an error, the server closing it, or a failed start.
    const lost = (error: unknown) => {
      if (client !== connection) return;
      client = undefined;
      void connection.end().catch(() => {});
      if (closed) return;
      logger.warn({ err: error, listener: name, channel }, 'listening connection lost; reconnecting');
      reconnectLater();
    };
    connection.on('error', lost);
    connection.on('end', () => lost(new Error('listening connection ended')));
    connection.on('notification', (message) => {
      if (message.channel === channel && client === connection) onNotification(message.payload ?? '');
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${channel}`);
      await onListening?.();
      if (client !== connection) return;
      pause = retryMs;
      markReady();
    } catch (error) {
      lost(error);
    }
  }

  void connect();
  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(retry);
      const connection = client;
      client = undefined;
      await connection?.end().catch(() => {});
    },
  };
}
