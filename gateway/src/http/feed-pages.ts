// The feed's kept pages (ADR 0028): feed and comment pages are kept per request and served to members and
// visitors alike until the post service's feed version moves (feed-version.ts): a worker asks for it five times a
// second, and drops its pages at once when it forwards a write, answering the version the write produced in a
// short-lived cookie, so the member's next read is fresh on whichever worker or gateway it reaches; anyone's write
// shows within about a quarter of a second. Visitors' browsers revalidate (no-cache, ETag); when the version cannot
// be asked, members get fresh pages and visitors pages at most a second old. A cache time of 0 keeps nothing.
// While the post service cannot answer at all (UNAVAILABLE: its database is away, ADR 0047), each request's
// last page answered is served again, never stored by the browser, rather than a 503: nobody can change the feed
// meanwhile, as every write goes through the same service.
import type { Logger } from '@rotunda/service-kit';
import type { Request, Response } from 'express';
import type { ServiceClients, UnaryMethod } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { keptAnswers } from '../telemetry/outage.ts';
import { isServiceUnavailable } from './errors.ts';
import { type FeedVersionWatch, feedVersionFromPost, watchFeedVersion } from './feed-version.ts';
import { type CachedAnswer, cachedAnswerOf, pageCache, sendAnswer } from './micro-cache.ts';

/** Distinct requests whose pages are kept at once: enough for every filter, sort and page in use. */
export const FEED_CACHE_KEYS = 1000;
/** How old (at most) a visitor's page may be while the feed version cannot be asked. */
export const BLIND_PAGE_MS = 1000;
/**
 * The feed version a member's write produced, for their next reads: a gateway worker that has not seen it yet
 * answers them fresh. Outlives the longest a watch may trust an old version. Not a secret: a number.
 */
export const WROTE_COOKIE = 'rotunda_feed_version';
const WROTE_COOKIE_MS = 5000;
const WROTE_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${WROTE_COOKIE}=(\\d{1,15})(?:;|$)`);
/** What a visitor's browser is told: use a kept page only after asking whether it is still current. */
export const VISITOR_PAGE_CACHING = 'no-cache';

type Pages = ReturnType<typeof pageCache<CachedAnswer>>;

export interface FeedPagesOptions {
  clients: Pick<ServiceClients, 'post' | 'deadlineMs'>;
  /** PUBLIC_CACHE_SECONDS: 0 keeps nothing. */
  cacheSeconds: number;
  logger: Logger;
  /** Default: a watch asking the post service (GetFeedVersion). */
  feedVersion?: FeedVersionWatch;
}

export interface FeedPages {
  feed: Pages;
  comments: Pages;
  /**
   * Answers a page everyone gets the same answer to: the kept one while the feed version is watched; when it
   * cannot be, or when a member's own write produced a version this worker has not seen yet, a fresh one for a
   * member, and one at most BLIND_PAGE_MS old for a visitor. A member's answer is never stored by the browser; a
   * visitor's is revalidated on every use.
   */
  send(req: Request, res: Response, pages: Pages, key: string, load: () => Promise<unknown>): Promise<void>;
  /**
   * A write: whatever it answers (one that timed out may still have committed), this worker's pages go before the
   * answer, so the writer's next read here is fresh; a done write answers the version it produced (WROTE_COOKIE)
   * for the writer's next read elsewhere; other readers learn it from the version.
   */
  write<Req, Res>(req: Request, res: Response, method: UnaryMethod<Req, Res>, request: Req): Promise<Res>;
  /** The feed page kept for `key` that a visitor may be given now without asking the post service, if any. */
  keptForVisitor(key: string): CachedAnswer | undefined;
  /** Calls `listener` whenever the kept pages go (the feed moved, or this worker forwarded a write). */
  onChange(listener: () => void): void;
}

export function feedPages({
  clients,
  cacheSeconds,
  logger,
  feedVersion = watchFeedVersion({ load: feedVersionFromPost(clients), logger }),
}: FeedPagesOptions): FeedPages {
  const rpc = serviceCaller(clients, 'post');
  const feed = pageCache<CachedAnswer>(FEED_CACHE_KEYS);
  const comments = pageCache<CachedAnswer>(FEED_CACHE_KEYS);
  feedVersion.onChange(() => {
    feed.invalidate();
    comments.invalidate();
  });
  // The last page answered per request, kept past invalidations (the oldest going first), for an outage.
  const lastAnswered = new Map<Pages, Map<string, CachedAnswer>>([
    [feed, new Map()],
    [comments, new Map()],
  ]);
  const remember = (pages: Pages, key: string, answer: CachedAnswer) => {
    const answers = lastAnswered.get(pages);
    if (!answers) return;
    answers.delete(key);
    answers.set(key, answer);
    for (const oldest of answers.keys()) {
      if (answers.size <= FEED_CACHE_KEYS) break;
      answers.delete(oldest);
    }
  };
  return {
    feed,
    comments,
    async send(req, res, pages, key, load) {
      const loadAnswer = async () => cachedAnswerOf(await load());
      const wrote = req.caller ? WROTE_COOKIE_VALUE.exec(req.headers.cookie ?? '')?.[1] : undefined;
      let answer: CachedAnswer;
      try {
        if (cacheSeconds === 0) answer = await loadAnswer();
        else if (feedVersion.watching() && (wrote === undefined || feedVersion.hasSeen(Number(wrote))))
          answer = await pages.get(key, loadAnswer);
        else if (req.caller) answer = await loadAnswer();
        else answer = await pages.get(key, loadAnswer, Math.min(BLIND_PAGE_MS, cacheSeconds * 1000));
      } catch (error) {
        const last = lastAnswered.get(pages)?.get(key);
        if (!last || !isServiceUnavailable(error) || cacheSeconds === 0) throw error;
        keptAnswers.inc({ answer: pages === feed ? 'feed page' : 'comments page' });
        sendAnswer(req, res, last, 'private, no-store');
        return;
      }
      if (cacheSeconds > 0) remember(pages, key, answer);
      sendAnswer(req, res, answer, req.caller ? 'private, no-store' : VISITOR_PAGE_CACHING);
    },
    async write<Req, Res>(req: Request, res: Response, method: UnaryMethod<Req, Res>, request: Req) {
      let answer: Res;
      try {
        answer = await rpc(req, method, request);
      } finally {
        feedVersion.changed();
      }
      const version = await feedVersion.ask();
      if (version !== undefined)
        res.cookie(WROTE_COOKIE, String(version), {
          httpOnly: true,
          sameSite: 'strict',
          path: '/api/posts',
          maxAge: WROTE_COOKIE_MS,
        });
      return answer;
    },
    keptForVisitor(key) {
      return cacheSeconds > 0 && feedVersion.watching() ? feed.kept(key) : undefined;
    },
    onChange: (listener) => feedVersion.onChange(listener),
  };
}
