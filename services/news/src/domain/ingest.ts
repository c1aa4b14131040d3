// Reads the configured feeds, stores the headlines not seen before, and repeats that on a schedule.
import type { Headline } from './headline.ts';
import type { FeedReader, HeadlineRepository } from './ports.ts';

/** The part of a pino logger the ingestion needs. */
export interface IngestLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface IngestResult {
  feedsRead: number;
  feedsFailed: number;
  headlinesNew: number;
}

export interface IngestOptions {
  feeds: readonly string[];
  reader: FeedReader;
  repository: HeadlineRepository;
  logger: IngestLogger;
}

export async function ingestFeeds({
  feeds,
  reader,
  repository,
  logger,
}: IngestOptions): Promise<IngestResult> {
  const unique = [...new Set(feeds)];
  // allSettled: one feed that times out, fails DNS, answers 500 or sends bad XML must not sink the others.
  // The async wrapper also turns a reader that throws synchronously into a rejection.
  const results = await Promise.allSettled(unique.map(async (feed) => reader.read(feed)));

  const byUrl = new Map<string, Headline>();
  let feedsRead = 0;
  let feedsFailed = 0;
  results.forEach((result, i) => {
    if (result.status === 'fulfilled') {
      feedsRead++;
      // Two feeds may carry the same story; one batch should not hand the repository the url twice.
      for (const headline of result.value) if (!byUrl.has(headline.url)) byUrl.set(headline.url, headline);
    } else {
      feedsFailed++;
      logger.warn({ feed: unique[i], err: messageOf(result.reason) }, 'news: feed could not be read');
    }
  });

  const headlinesNew = byUrl.size > 0 ? await repository.addNew([...byUrl.values()]) : 0;
  logger.info({ feedsRead, feedsFailed, headlinesNew }, 'news: feeds ingested');
  return { feedsRead, feedsFailed, headlinesNew };
}

export interface ScheduleOptions {
  intervalMs: number;
  run: () => Promise<unknown>;
  logger: IngestLogger;
}

export interface ScheduledIngestion {
  /** No run starts after this; the promise settles once the run in progress (if any) has finished. */
  stop(): Promise<void>;
}

/**
 * Runs `run` right away, then again `intervalMs` after each run ends. The next run is only armed when
 * the previous one has finished, so a slow run can never overlap the next. Timers are unref'd so the
 * schedule alone does not keep the process alive.
 */
export function scheduleIngestion({ intervalMs, run, logger }: ScheduleOptions): ScheduledIngestion {
  if (!Number.isFinite(intervalMs) || intervalMs <= 0 || intervalMs > 2 ** 31 - 1) {
    throw new RangeError('intervalMs must be a positive number of milliseconds below 2^31');
  }
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<void> = Promise.resolve();

  const tick = (): void => {
    timer = undefined;
    current = (async () => {
      try {
        await run();
      } catch (err) {
        // A failed run (say the database is down) is logged; the next one may well succeed.
        logger.warn({ err: messageOf(err) }, 'news: ingestion run failed');
      }
      if (!stopped) {
        timer = setTimeout(tick, intervalMs);
        timer.unref();
      }
    })();
  };
  tick();

  return {
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      return current;
    },
  };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
