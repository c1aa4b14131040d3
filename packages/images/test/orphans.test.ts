// The sweep of uploads no record took, against a real embedded S3 endpoint: only old, unreferenced objects of the
// service's own kind in the shape this package makes are removed; two replicas sweeping at once are fine; the
// periodic sweeper keeps going after a failed turn and stops (waiting for a turn under way) on shutdown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectKey } from '../src/keys.ts';
import { createObjectStore, type ObjectStore } from '../src/object-store.ts';
import {
  ATTACH_MARGIN_MS,
  isAttachableUpload,
  startOrphanSweeper,
  sweepOrphanUploads,
  UPLOAD_GRACE_MS,
} from '../src/orphans.ts';
import { startTestS3, type TestS3 } from '../src/testing.ts';

let s3: TestS3;
let store: ObjectStore;

beforeAll(async () => {
  s3 = await startTestS3('orphans-test');
  store = createObjectStore(s3.config);
});
afterAll(() => s3?.stop());

const TWO_HOURS_LATER = () => Date.now() + 2 * UPLOAD_GRACE_MS;

async function stored(kind: 'pictures' | 'logos' = 'pictures'): Promise<string> {
  const key = objectKey(kind, 'jpg');
  await store.put(key, Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg');
  return key;
}

const exists = async (key: string) => (await store.stat(key)) !== null;

/** Removes every picture, so each case starts from an empty kind. */
async function emptyPictures() {
  for await (const page of store.list('pictures/')) for (const { key } of page) await store.remove(key);
}

describe('sweepOrphanUploads', () => {
  it('removes old unreferenced uploads of its kind, and nothing referenced, young, foreign or of another kind', async () => {
    await emptyPictures();
    const orphan = await stored();
    const attached = await stored();
    const logo = await stored('logos');
    const foreign = 'pictures/notes.txt';
    await store.put(foreign, Buffer.from('not an upload'), 'text/plain');
    const asked: string[][] = [];
    const outcome = await sweepOrphanUploads({
      store,
      kind: 'pictures',
      referenced: async (keys) => {
        asked.push([...keys]);
        return keys.filter((key) => key === attached);
      },
      now: TWO_HOURS_LATER,
    });
    expect(outcome).toEqual({ checked: 2, removed: [orphan] });
    expect(asked.flat().sort()).toEqual([orphan, attached].sort());
    expect(await exists(orphan)).toBe(false);
    for (const key of [attached, logo, foreign]) expect(await exists(key)).toBe(true);
    await store.remove(foreign);
  });

  it('leaves uploads younger than an hour alone without asking about them', async () => {
    await emptyPictures();
    const young = await stored();
    let asked = false;
    const outcome = await sweepOrphanUploads({
      store,
      kind: 'pictures',
      referenced: async () => {
        asked = true;
        return [];
      },
    });
    expect(outcome).toEqual({ checked: 0, removed: [] });
    expect(asked).toBe(false);
    expect(await exists(young)).toBe(true);
    // Just past the hour it goes.
    const later = await sweepOrphanUploads({
      store,
      kind: 'pictures',
      referenced: async () => [],
      now: () => Date.now() + UPLOAD_GRACE_MS + 1000,
    });
    expect(later.removed).toEqual([young]);
  });

  it('lets two replicas sweep at once: each orphan goes, every referenced upload stays', async () => {
    await emptyPictures();
    const orphans = await Promise.all([stored(), stored(), stored()]);
    const attached = await Promise.all([stored(), stored()]);
    const referenced = async (keys: readonly string[]) => keys.filter((key) => attached.includes(key));
    const outcomes = await Promise.all(
      [1, 2].map(() => sweepOrphanUploads({ store, kind: 'pictures', referenced, now: TWO_HOURS_LATER })),
    );
    for (const outcome of outcomes) expect(outcome.removed.sort()).toEqual([...orphans].sort());
    for (const key of orphans) expect(await exists(key)).toBe(false);
    for (const key of attached) expect(await exists(key)).toBe(true);
  });
});

describe('isAttachableUpload', () => {
  it('lets a record name an upload until the margin before the hour, never after', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    const written = (msAgo: number) => new Date(now - msAgo);
    expect(isAttachableUpload(written(0), now)).toBe(true);
    expect(isAttachableUpload(written(UPLOAD_GRACE_MS - ATTACH_MARGIN_MS - 1), now)).toBe(true);
    expect(isAttachableUpload(written(UPLOAD_GRACE_MS - ATTACH_MARGIN_MS), now)).toBe(false);
    expect(isAttachableUpload(written(UPLOAD_GRACE_MS + 1), now)).toBe(false);
  });
});

describe('startOrphanSweeper', () => {
  const quiet = { info: () => {}, warn: () => {} };

  it('sweeps on its timer, goes on after a failed turn, and stops for good', async () => {
    await emptyPictures();
    const warnings: string[] = [];
    let turns = 0;
    const sweeper = startOrphanSweeper({
      store,
      kind: 'pictures',
      referenced: async () => {
        turns += 1;
        if (turns === 1) throw new Error('database down');
        return [];
      },
      now: TWO_HOURS_LATER,
      intervalMs: 50,
      random: () => 0,
      logger: { ...quiet, warn: (obj) => warnings.push((obj as { err: string }).err) },
    });
    const first = await stored();
    await expect.poll(() => exists(first), { timeout: 5000 }).toBe(false);
    expect(warnings).toEqual(['database down']);
    await sweeper.stop();
    const afterStop = await stored();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await exists(afterStop)).toBe(true);
    await store.remove(afterStop);
  });

  it('waits for a turn under way when stopped', async () => {
    await emptyPictures();
    const orphan = await stored();
    let release: () => void = () => {};
    let started = false;
    const sweeper = startOrphanSweeper({
      store,
      kind: 'pictures',
      referenced: async () => {
        started = true;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return [];
      },
      now: TWO_HOURS_LATER,
      intervalMs: 20,
      random: () => 0,
      logger: quiet,
    });
    await expect.poll(() => started).toBe(true);
    let stopped = false;
    const stopping = sweeper.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(await exists(orphan)).toBe(false);
  });
});
