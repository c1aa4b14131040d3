// Tests feed ingestion over real HTTP with an in-memory repository, and the ingestion schedule.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFeedReader } from '../src/adapters/feed-reader.ts';
import type { Headline } from '../src/domain/headline.ts';
import { type IngestLogger, ingestFeeds, scheduleIngestion } from '../src/domain/ingest.ts';
import type { FeedReader, HeadlineRepository } from '../src/domain/ports.ts';
import { type FeedServer, startFeedServer } from './fixtures/feed-server.ts';

class MemoryRepository implements HeadlineRepository {
  readonly byUrl = new Map<string, Headline>();
  async addNew(headlines: readonly Headline[]): Promise<number> {
    let added = 0;
    for (const headline of headlines) {
      if (this.byUrl.has(headline.url)) continue;
      this.byUrl.set(headline.url, headline);
      added++;
    }
    return added;
  }
  async latest(limit: number): Promise<Headline[]> {
    return [...this.byUrl.values()]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .slice(0, limit);
  }
}

function memoryLogger() {
  const lines: { level: 'info' | 'warn'; obj: object; msg: string }[] = [];
  const logger: IngestLogger = {
    info: (obj, msg) => lines.push({ level: 'info', obj, msg }),
    warn: (obj, msg) => lines.push({ level: 'warn', obj, msg }),
  };
  return { logger, lines, warnings: () => lines.filter((l) => l.level === 'warn') };
}

const headline = (url: string, title = url): Headline => ({
  title,
  snippet: '',
  url,
  logo: '',
  publication: 'Test',
  createdAt: new Date('2025-06-01T00:00:00Z'),
});

describe('ingestFeeds over HTTP', () => {
  let server: FeedServer;
  beforeAll(async () => {
    server = await startFeedServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('stores the good feeds, logs and counts the broken ones, and stores nothing twice', async () => {
    const good = [server.url('/rss.xml'), server.url('/atom.xml')];
    const broken = [server.url('/malformed.xml'), server.url('/500'), server.url('/slow')];
    const feeds = [broken[0], good[0], broken[1], good[1], broken[2]] as string[];
    // Long enough for a good feed on a busy machine; /slow never answers, so the run takes this long.
    const reader = createFeedReader({ timeoutMs: 1_000, allowedPrivateAddresses: ['127.0.0.1'] });
    const repository = new MemoryRepository();
    const { logger, lines, warnings } = memoryLogger();

    const first = await ingestFeeds({ feeds, reader, repository, logger });
    expect(first).toEqual({ feedsRead: 2, feedsFailed: 3, headlinesNew: 5 });
    expect([...repository.byUrl.keys()].sort()).toEqual(
      [
        'https://capitol.example/budget-deal',
        'https://capitol.example/long-read',
        server.url('/local/story'),
        'https://wire.example/agency-rules',
        'https://wire.example/hearing',
      ].sort(),
    );
    expect(warnings()).toHaveLength(3);
    expect(warnings().map((w) => w.msg)).toEqual(Array(3).fill('news: feed could not be read'));
    expect(warnings().map((w) => w.obj)).toEqual(
      expect.arrayContaining([
        { feed: broken[0], err: expect.stringContaining('not a readable RSS or Atom feed') },
        { feed: broken[1], err: `${broken[1]} answered HTTP 500 Internal Server Error` },
        { feed: broken[2], err: `${broken[2]} did not answer within 1000 ms` },
      ]),
    );
    expect(lines.at(-1)).toEqual({
      level: 'info',
      obj: { feedsRead: 2, feedsFailed: 3, headlinesNew: 5 },
      msg: 'news: feeds ingested',
    });

    const second = await ingestFeeds({ feeds, reader, repository, logger });
    expect(second).toEqual({ feedsRead: 2, feedsFailed: 3, headlinesNew: 0 });
    expect(repository.byUrl.size).toBe(5);
  });
});

describe('ingestFeeds with a fake reader', () => {
  it('counts a reader that throws synchronously as one failed feed', async () => {
    const reader: FeedReader = {
      read(feedUrl) {
        if (feedUrl === 'bad') throw new Error('boom');
        return Promise.resolve([headline('https://a.example/1')]);
      },
    };
    const repository = new MemoryRepository();
    const { logger, warnings } = memoryLogger();
    const result = await ingestFeeds({ feeds: ['bad', 'good'], reader, repository, logger });
    expect(result).toEqual({ feedsRead: 1, feedsFailed: 1, headlinesNew: 1 });
    expect(warnings()[0]?.obj).toEqual({ feed: 'bad', err: 'boom' });
  });

  it('hands the repository each url once, even when two feeds carry the same story', async () => {
    const reader: FeedReader = {
      read: async (feedUrl) => [
        headline('https://a.example/shared', feedUrl),
        headline(`https://a.example/${feedUrl}`),
      ],
    };
    const repository = new MemoryRepository();
    const addNew = vi.spyOn(repository, 'addNew');
    const { logger } = memoryLogger();
    const result = await ingestFeeds({ feeds: ['one', 'two', 'one'], reader, repository, logger });
    expect(result).toEqual({ feedsRead: 2, feedsFailed: 0, headlinesNew: 3 });
    expect(addNew).toHaveBeenCalledOnce();
    expect(addNew.mock.calls[0]?.[0].map((h) => h.url)).toEqual([
      'https://a.example/shared',
      'https://a.example/one',
      'https://a.example/two',
    ]);
    expect(repository.byUrl.get('https://a.example/shared')?.title).toBe('one');
  });

  it('does not call the repository when every feed failed', async () => {
    const reader: FeedReader = { read: async () => Promise.reject(new Error('down')) };
    const repository = new MemoryRepository();
    const addNew = vi.spyOn(repository, 'addNew');
    const { logger, warnings } = memoryLogger();
    expect(await ingestFeeds({ feeds: ['a', 'b'], reader, repository, logger })).toEqual({
      feedsRead: 0,
      feedsFailed: 2,
      headlinesNew: 0,
    });
    expect(addNew).not.toHaveBeenCalled();
    expect(warnings().map((w) => w.obj)).toEqual([
      { feed: 'a', err: 'down' },
      { feed: 'b', err: 'down' },
    ]);
  });
});

describe('scheduleIngestion', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  function deferred() {
    let resolve!: () => void;
    let reject!: (err: Error) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  }

  it('runs right away, then every interval, never overlapping a slow run', async () => {
    vi.useFakeTimers();
    const runs: ReturnType<typeof deferred>[] = [];
    const run = vi.fn(() => {
      const d = deferred();
      runs.push(d);
      return d.promise;
    });
    const { logger } = memoryLogger();
    const schedule = scheduleIngestion({ intervalMs: 1000, run, logger });
    expect(run).toHaveBeenCalledTimes(1);

    // The first run takes far longer than the interval: no second run may start meanwhile.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(1);

    runs[0]?.resolve();
    await vi.advanceTimersByTimeAsync(999);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(2);

    runs[1]?.resolve();
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(3);

    runs[2]?.resolve();
    await schedule.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('logs a failed run and keeps the schedule going', async () => {
    vi.useFakeTimers();
    const run = vi.fn().mockRejectedValueOnce(new Error('database down')).mockResolvedValue(undefined);
    const { logger, warnings } = memoryLogger();
    const schedule = scheduleIngestion({ intervalMs: 500, run, logger });
    await vi.advanceTimersByTimeAsync(0);
    expect(warnings()).toEqual([
      { level: 'warn', obj: { err: 'database down' }, msg: 'news: ingestion run failed' },
    ]);
    await vi.advanceTimersByTimeAsync(500);
    expect(run).toHaveBeenCalledTimes(2);
    await schedule.stop();
  });

  it('stop() waits for the run in progress and arms no further run', async () => {
    vi.useFakeTimers();
    const d = deferred();
    const run = vi.fn(() => d.promise);
    const { logger } = memoryLogger();
    const schedule = scheduleIngestion({ intervalMs: 100, run, logger });
    let stopped = false;
    const stopping = schedule.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    d.resolve();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('keeps its timer unref’d so it never holds the process open', async () => {
    // The schedule's own timers, told apart by their delay; counting every live timer would also count
    // whatever an earlier test (an HTTP client's keep-alive) left running.
    const armed: NodeJS.Timeout[] = [];
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) => {
      const timer = realSetTimeout(callback, ms);
      if (ms === 20) armed.push(timer);
      return timer;
    }) as typeof setTimeout);
    let ran = 0;
    const schedule = scheduleIngestion({
      intervalMs: 20,
      run: async () => {
        ran++;
      },
      logger: memoryLogger().logger,
    });
    await vi.waitFor(() => expect(ran).toBeGreaterThanOrEqual(3), { timeout: 5_000 });
    expect(armed.length).toBeGreaterThanOrEqual(2);
    expect(armed.map((timer) => timer.hasRef())).toEqual(armed.map(() => false));
    await schedule.stop();
  });

  it('refuses a nonsensical interval', () => {
    const args = { run: async () => {}, logger: memoryLogger().logger };
    expect(() => scheduleIngestion({ intervalMs: 0, ...args })).toThrow(RangeError);
    expect(() => scheduleIngestion({ intervalMs: Number.NaN, ...args })).toThrow(RangeError);
  });
});
