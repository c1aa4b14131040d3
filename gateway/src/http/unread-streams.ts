// The live unread counts (GET /api/notifications/stream, ADR 0042): server-sent events carrying
// `{"unread_count": n}` when a member connects and whenever their count changes. Each gateway process holds ONE
// WatchUnreadCounts stream to the notification service, which announces every member's changes from whichever
// replica made them, and fans each change out to the connections it holds for that member; so a change reaches a
// member on any gateway within the 2 s docs/product.md#9-business-constants-and-limits allows. The watch
// opens with the first connection and is opened again with backoff when it ends or fails; every held
// connection is then sent its current count again, since changes made meanwhile were never announced to it. A
// connection ends when its session ends (the ended sessions this gateway learns of), when its access token
// expires (the client reconnects with a fresh one), or when the process stops; connections are capped per
// process and per member.
import { randomUUID } from 'node:crypto';
import { type ClientReadableStream, Metadata } from '@grpc/grpc-js';
import type { UnreadCountChanged } from '@rotunda/protos/notification';
import { type Caller, type Logger, REQUEST_ID_HEADER, setCallerMetadata } from '@rotunda/service-kit';
import type { Request, Response } from 'express';
import type { EndedSessions } from '../auth/ended-sessions.ts';
import { callerOf } from '../auth/middleware.ts';
import { call, type ServiceClients } from '../grpc/clients.ts';
import {
  unreadStreamsHeld,
  unreadStreamsRefused,
  unreadWatchOpen,
  unreadWatchReopens,
} from '../telemetry/notifications.ts';
import { HttpError } from './errors.ts';

/** Streams one member may hold in one process: a handful of tabs and devices, never a runaway script's thousands. */
export const STREAMS_PER_MEMBER = 10;
/** A comment line this often keeps proxies (nginx's 60 s read timeout, load balancers) from closing an idle stream. */
export const KEEP_ALIVE_MS = 25_000;
/** How often held connections are checked against ended sessions and their tokens' expiry. */
const CHECK_MS = 1000;
/** Who the watch is opened for: the gateway process itself, not a member. */
const WATCHER: Caller = { userId: 'gateway', email: '', roles: [] };
/** The watch's first retry, doubling up to the cap while the notification service stays away. */
const BACKOFF = { firstMs: 250, maxMs: 10_000 } as const;
/**
 * A reopened watch is known to be listening once the service sends its headers or a first change; a service that
 * sends neither for this long is taken to listen anyway, and the counts are sent again.
 */
const LISTENING_FALLBACK_MS = 1000;
/** The browser's EventSource waits this long before it reconnects a stream the gateway ended. */
const CLIENT_RETRY_MS = 3000;
/** Seconds a client refused at the process's cap waits before it tries again (another replica may take it). */
const FULL_RETRY_AFTER_SECONDS = 5;

export const STREAM_MESSAGES = {
  full: 'Live updates are busy on this server. Your count will update when you reload the page.',
  tooMany: `You have live updates open in ${STREAMS_PER_MEMBER} windows already. Close one and try again.`,
  expired: 'Your session token has expired. Renew it to see live updates.',
} as const;

interface Connection {
  res: Response;
  caller: Caller;
  sessionId: string | undefined;
  expiresAt: number | undefined;
  /** The count last written, so an unchanged count is not written again. */
  sent: number | undefined;
  /** Set while its first count is being read: a change announced meanwhile wins over that answer. */
  announced: number | undefined;
  ready: boolean;
}

export interface UnreadStreamsOptions {
  clients: Pick<ServiceClients, 'notification' | 'deadlineMs'>;
  logger: Logger;
  /** Streams this process holds at once. */
  atOnce: number;
  endedSessions?: Pick<EndedSessions, 'has'> | undefined;
  keepAliveMs?: number;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

export interface UnreadStreams {
  /** Answers a member's GET /api/notifications/stream and holds it until it ends. */
  open(req: Request, res: Response): Promise<void>;
  /** Ends every stream this process holds for a member (their account is gone). */
  endMember(userId: string): void;
  /** Streams held now. */
  held(): number;
  /** Ends every stream and the watch (the process stops: clients reconnect to another replica). */
  close(): void;
}

const eventOf = (count: number) => `data: ${JSON.stringify({ unread_count: count })}\n\n`;

export function unreadStreams({
  clients,
  logger,
  atOnce,
  endedSessions,
  keepAliveMs = KEEP_ALIVE_MS,
  now = Date.now,
}: UnreadStreamsOptions): UnreadStreams {
  const byMember = new Map<string, Set<Connection>>();
  let count = 0;
  let closed = false;
  let watch: ClientReadableStream<UnreadCountChanged> | undefined;
  let watching = false;
  let backoffMs: number = BACKOFF.firstMs;
  let reopen: NodeJS.Timeout | undefined;
  let keepAlive: NodeJS.Timeout | undefined;
  let checks: NodeJS.Timeout | undefined;

  const write = (connection: Connection, value: number) => {
    if (connection.sent === value) return;
    connection.sent = value;
    connection.res.write(eventOf(value));
  };

  function changed(userId: string, value: number) {
    for (const connection of byMember.get(userId) ?? []) {
      if (connection.ready) write(connection, value);
      else connection.announced = value;
    }
  }

  const readCount = async (caller: Caller) =>
    (
      await call(
        'notification',
        clients.notification,
        clients.notification.getUnreadCount,
        {},
        { requestId: `unread-${randomUUID()}`, deadlineMs: clients.deadlineMs, caller },
      )
    ).unread_count;

  /** After the watch reopened: each member's count again, once per member, as changes may have been missed. */
  function resend() {
    for (const connections of byMember.values()) {
      const [first] = connections;
      if (!first) continue;
      readCount(first.caller).then(
        (value) => {
          for (const connection of connections) if (connection.ready) write(connection, value);
        },
        (error: unknown) => logger.warn({ err: error }, 'an unread count could not be read again'),
      );
    }
  }

  function startWatch(again: boolean) {
    if (closed) return;
    const metadata = new Metadata();
    metadata.set(REQUEST_ID_HEADER, `unread-watch-${randomUUID()}`);
    // Signed like every call the gateway makes: the notification service lets only its signed callers watch.
    setCallerMetadata(metadata, WATCHER);
    const stream = clients.notification.watchUnreadCounts({}, metadata);
    watch = stream;
    let listening = false;
    const onListening = () => {
      if (listening || watch !== stream) return;
      listening = true;
      backoffMs = BACKOFF.firstMs;
      unreadWatchOpen.set(1);
      if (again) resend();
    };
    const fallback = setTimeout(onListening, LISTENING_FALLBACK_MS);
    fallback.unref();
    stream.on('metadata', onListening);
    stream.on('data', (change: UnreadCountChanged) => {
      onListening();
      changed(change.user_id, change.unread_count);
    });
    let ended = false;
    const onEnd = (error?: Error) => {
      if (ended) return;
      ended = true;
      clearTimeout(fallback);
      if (watch !== stream || closed) return;
      watch = undefined;
      unreadWatchOpen.set(0);
      // A watch that was listening ends in the normal course (the service's connections are rotated, ADR 0025, or
      // a replica restarts): worth a line, not a warning. One that never listened means the service is away.
      if (listening)
        logger.info(
          { err: error, retryInMs: backoffMs },
          'the watch of unread counts ended; opening it again',
        );
      else
        logger.warn(
          { err: error, retryInMs: backoffMs },
          'the watch of unread counts could not be opened; trying again after a pause',
        );
      reopen = setTimeout(() => {
        reopen = undefined;
        unreadWatchReopens.inc();
        startWatch(true);
      }, backoffMs);
      reopen.unref();
      backoffMs = Math.min(backoffMs * 2, BACKOFF.maxMs);
    };
    stream.on('error', onEnd);
    stream.on('end', () => onEnd());
  }

  function ensureWatching() {
    if (watching || closed) return;
    watching = true;
    startWatch(false);
  }

  function remove(connection: Connection) {
    const connections = byMember.get(connection.caller.userId);
    if (!connections?.delete(connection)) return;
    if (connections.size === 0) byMember.delete(connection.caller.userId);
    count -= 1;
    unreadStreamsHeld.dec();
    if (count === 0) stopTimers();
  }

  function end(connection: Connection) {
    remove(connection);
    connection.res.end();
  }

  function check() {
    const at = now();
    for (const connections of byMember.values())
      for (const connection of connections) {
        const sessionEnded = connection.sessionId !== undefined && endedSessions?.has(connection.sessionId);
        const expired = connection.expiresAt !== undefined && at >= connection.expiresAt;
        if (sessionEnded || expired) end(connection);
      }
  }

  function startTimers() {
    if (keepAlive) return;
    keepAlive = setInterval(() => {
      for (const connections of byMember.values())
        for (const connection of connections) if (connection.ready) connection.res.write(': keep-alive\n\n');
    }, keepAliveMs);
    keepAlive.unref();
    checks = setInterval(check, CHECK_MS);
    checks.unref();
  }

  function stopTimers() {
    clearInterval(keepAlive);
    clearInterval(checks);
    keepAlive = undefined;
    checks = undefined;
  }

  return {
    async open(req, res) {
      const caller = callerOf(req);
      // Other routes take a token up to the clock tolerance past its expiry; a stream would be closed at once at the
      // next check, and the client would open it again and again: it is refused instead.
      if (req.tokenExpiresAt !== undefined && now() >= req.tokenExpiresAt)
        throw new HttpError(401, STREAM_MESSAGES.expired);
      if (closed) throw new HttpError(503, STREAM_MESSAGES.full, FULL_RETRY_AFTER_SECONDS);
      if (count >= atOnce) {
        unreadStreamsRefused.inc({ cap: 'process' });
        throw new HttpError(503, STREAM_MESSAGES.full, FULL_RETRY_AFTER_SECONDS);
      }
      const mine = byMember.get(caller.userId) ?? new Set<Connection>();
      if (mine.size >= STREAMS_PER_MEMBER) {
        unreadStreamsRefused.inc({ cap: 'member' });
        throw new HttpError(429, STREAM_MESSAGES.tooMany, CLIENT_RETRY_MS / 1000);
      }
      const connection: Connection = {
        res,
        caller,
        sessionId: req.sessionId,
        expiresAt: req.tokenExpiresAt,
        sent: undefined,
        announced: undefined,
        ready: false,
      };
      // Held (and counted) before its first count is read, so a change announced meanwhile is not lost.
      mine.add(connection);
      byMember.set(caller.userId, mine);
      count += 1;
      unreadStreamsHeld.inc();
      startTimers();
      // The answer's close, not the request's: that one may come as soon as the request has been read.
      res.on('close', () => remove(connection));
      ensureWatching();
      let first: number;
      try {
        first = await readCount(caller);
      } catch (error) {
        remove(connection);
        throw error;
      }
      if (res.destroyed || !byMember.get(caller.userId)?.has(connection)) return;
      res.status(200);
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      // no-transform: the compression middleware leaves the stream alone (it would hold events back to fill its
      // buffer), and so do proxies that honour it; nginx reads X-Accel-Buffering.
      res.setHeader('Cache-Control', 'no-cache, no-transform');
      res.setHeader('X-Accel-Buffering', 'no');
      res.setHeader('Connection', 'keep-alive');
      res.write(`retry: ${CLIENT_RETRY_MS}\n\n`);
      connection.ready = true;
      write(connection, connection.announced ?? first);
    },

    endMember(userId) {
      for (const connection of byMember.get(userId) ?? []) end(connection);
    },

    held: () => count,

    close() {
      closed = true;
      clearTimeout(reopen);
      const stream = watch;
      watch = undefined;
      stream?.cancel();
      unreadWatchOpen.set(0);
      for (const connections of [...byMember.values()]) for (const connection of connections) end(connection);
      stopTimers();
    },
  };
}
