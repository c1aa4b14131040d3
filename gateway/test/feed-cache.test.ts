// The feed page cache's parts on their own, deterministically: a load racing an invalidation is never kept as
// current and never joined afterwards; the watch on the feed version drops pages when it moves, goes blind when it
// cannot be confirmed for a second (saying so once per outage), comes back, and stops asking when idle; kept
// answers pick their encoding from Accept-Encoding.
import type { Logger } from '@rotunda/service-kit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchFeedVersion } from '../src/http/feed-version.ts';
import { cachedAnswerOf, encodedAnswer, pageCache } from '../src/http/micro-cache.ts';

afterEach(() => vi.useRealTimers());

/** A load the test settles when it wants. */
function controlledLoad<T>() {
  const calls: { resolve: (value: T) => void; reject: (error: Error) => void }[] = [];
  const load = () => new Promise<T>((resolve, reject) => calls.push({ resolve, reject }));
  return { load, calls };
}

describe('pageCache', () => {
  it('keeps a page until invalidated, one load for everyone asking meanwhile', async () => {
    const cache = pageCache<string>(10);
    const { load, calls } = controlledLoad<string>();
    const first = cache.get('a', load);
    const second = cache.get('a', load);
    expect(calls).toHaveLength(1);
    calls[0]?.resolve('page 1');
    expect(await Promise.all([first, second])).toEqual(['page 1', 'page 1']);
    expect(await cache.get('a', load)).toBe('page 1');
    expect(calls).toHaveLength(1);
    cache.invalidate();
    const third = cache.get('a', load);
    calls[1]?.resolve('page 2');
    expect(await third).toBe('page 2');
  });

  it('never keeps as current a load that started before an invalidation, nor lets later readers join it', async () => {
    const cache = pageCache<string>(10);
    const { load, calls } = controlledLoad<string>();
    const early = cache.get('a', load);
    // A write lands while the page is loading: the loading page may be from before it.
    cache.invalidate();
    const late = cache.get('a', load);
    expect(calls).toHaveLength(2);
    calls[1]?.resolve('after the write');
    calls[0]?.resolve('before the write');
    // Whoever asked before gets what they waited for; nobody after does.
    expect(await early).toBe('before the write');
    expect(await late).toBe('after the write');
    expect(await cache.get('a', load)).toBe('after the write');
    expect(calls).toHaveLength(2);
  });

  it('keeps nothing of a failed load, and accepts a kept page only as old as asked (from the load’s start)', async () => {
    let now = 0;
    const cache = pageCache<string>(10, () => now);
    const { load, calls } = controlledLoad<string>();
    const failed = cache.get('a', load);
    calls[0]?.reject(new Error('unavailable'));
    await expect(failed).rejects.toThrow('unavailable');
    const loaded = cache.get('a', load, 1000);
    now = 400;
    calls[1]?.resolve('page');
    await loaded;
    now = 999;
    expect(await cache.get('a', load, 1000)).toBe('page');
    now = 1000;
    void cache.get('a', load, 1000);
    expect(calls).toHaveLength(3);
  });

  it('keeps at most maxKeys pages, the oldest going first', async () => {
    const cache = pageCache<string>(2);
    await cache.get('a', async () => 'a');
    await cache.get('b', async () => 'b');
    await cache.get('c', async () => 'c');
    expect(cache.size()).toBe(2);
    expect(await cache.get('b', async () => 'b2')).toBe('b');
    expect(await cache.get('a', async () => 'a2')).toBe('a2');
  });
});

function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const log =
    (level: string) =>
    (...args: unknown[]) =>
      lines.push({ level, message: String(args.find((arg) => typeof arg === 'string')) });
  return { logger: { warn: log('warn'), info: log('info') } as unknown as Logger, lines };
}

describe('watchFeedVersion', () => {
  it('trusts pages once an answer came, drops them when the version moves or this worker wrote', async () => {
    vi.useFakeTimers();
    let version = 1;
    const dropped: string[] = [];
    const { logger } = recordingLogger();
    const watch = watchFeedVersion({ load: async () => version, logger, intervalMs: 200 });
    watch.onChange(() => dropped.push('dropped'));
    // The first read starts the questions; until an answer, nothing is trusted.
    expect(watch.watching()).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(watch.watching()).toBe(true);
    expect(dropped).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(watch.watching()).toBe(true);
    expect(dropped).toHaveLength(1);
    version = 2;
    await vi.advanceTimersByTimeAsync(200);
    expect(dropped).toHaveLength(2);
    watch.changed();
    expect(dropped).toHaveLength(3);
    watch.close();
  });

  it('goes blind a second after the last answer, says so once per outage, and trusts pages again after', async () => {
    vi.useFakeTimers();
    let failing = false;
    let dropped = 0;
    const { logger, lines } = recordingLogger();
    const watch = watchFeedVersion({
      load: async () => {
        if (failing) throw new Error('unavailable');
        return 7;
      },
      logger,
      intervalMs: 200,
      staleAfterMs: 1000,
    });
    watch.onChange(() => dropped++);
    watch.watching();
    await vi.advanceTimersByTimeAsync(0);
    expect(watch.watching()).toBe(true);
    failing = true;
    await vi.advanceTimersByTimeAsync(900);
    // Still within a second of the last answer.
    expect(watch.watching()).toBe(true);
    await vi.advanceTimersByTimeAsync(400);
    const before = dropped;
    expect(watch.watching()).toBe(false);
    expect(dropped).toBe(before + 1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(watch.watching()).toBe(false);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    failing = false;
    await vi.advanceTimersByTimeAsync(200);
    expect(watch.watching()).toBe(true);
    expect(dropped).toBe(before + 2);
    expect(lines.filter((line) => line.level === 'info')).toHaveLength(1);
    watch.close();
  });

  it('stops asking when nobody reads, and starts again on the next read', async () => {
    vi.useFakeTimers();
    let asked = 0;
    const { logger } = recordingLogger();
    const watch = watchFeedVersion({
      load: async () => {
        asked++;
        return 1;
      },
      logger,
      intervalMs: 200,
      idleAfterMs: 1000,
    });
    watch.watching();
    await vi.advanceTimersByTimeAsync(5000);
    const whileIdle = asked;
    expect(whileIdle).toBeLessThanOrEqual(7);
    await vi.advanceTimersByTimeAsync(5000);
    expect(asked).toBe(whileIdle);
    // Forgotten while idle: nothing is trusted until the next answer.
    expect(watch.watching()).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toBe(whileIdle + 1);
    expect(watch.watching()).toBe(true);
    watch.close();
  });
});

describe('encodedAnswer', () => {
  const answer = () => cachedAnswerOf({ text: 'the public square '.repeat(200) });

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'br'],
    ['gzip', 'gzip'],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['identity', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['', undefined],
  ])('Accept-Encoding "%s" gets %s', (header, encoding) => {
    expect(encodedAnswer(answer(), header).encoding).toBe(encoding);
  });

  it('compresses each variant once per answer, and never a small answer', () => {
    const kept = answer();
    const first = encodedAnswer(kept, 'br').body;
    expect(encodedAnswer(kept, 'br').body).toBe(first);
    expect(encodedAnswer(cachedAnswerOf({ small: true }), 'br')).toEqual({
      body: cachedAnswerOf({ small: true }).body,
    });
  });
});
