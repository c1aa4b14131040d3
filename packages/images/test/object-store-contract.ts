// The object-store contract: one suite every ObjectStore adapter must pass, run against each real S3 endpoint
// (the embedded s3rver always, MinIO when configured) by object-store.test.ts.
import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectKey } from '../src/keys.ts';
import { createObjectStore, type ObjectStore, type ObjectStoreConfig } from '../src/object-store.ts';

export interface ContractTarget {
  /** Starts the endpoint (or reaches it) and says how to connect; `stop` cleans up. */
  start(): Promise<{ config: ObjectStoreConfig; stop(): Promise<void> }>;
}

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as Readable) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Registers the suite; with `target` null every case is registered as skipped (the reason printed by the caller). */
export function objectStoreContract(name: string, target: ContractTarget | null): void {
  const suite = target ? describe : describe.skip;
  suite(`object store contract: ${name}`, () => {
    let store: ObjectStore;
    let stop: (() => Promise<void>) | undefined;

    beforeAll(async () => {
      if (!target) return;
      const started = await target.start();
      stop = started.stop;
      store = createObjectStore(started.config);
      await store.ensureBucket();
    });
    afterAll(async () => {
      await stop?.();
    });

    it('ensureBucket is idempotent', async () => {
      await store.ensureBucket();
      await Promise.all([store.ensureBucket(), store.ensureBucket()]);
    });

    it('put then get returns the same bytes, content type, size and etag', async () => {
      const key = objectKey('logos', 'png');
      const data = Buffer.from(`image bytes ${randomUUID()}`);
      await store.put(key, data, 'image/png');
      const first = await store.get(key);
      expect(first).not.toBeNull();
      if (!first) return;
      expect(await bytesOf(first.stream)).toEqual(data);
      expect(first.contentType).toBe('image/png');
      expect(first.size).toBe(data.length);
      // A single-part upload's ETag is the MD5 of its bytes, unquoted, on S3, MinIO and s3rver alike.
      expect(first.etag).toBe(createHash('md5').update(data).digest('hex'));
      expect(first.lastModified).toBeInstanceOf(Date);
      expect(Math.abs(first.lastModified.getTime() - Date.now())).toBeLessThan(5 * 60_000);
      const again = await store.get(key);
      expect(again?.etag).toBe(first.etag);
      again?.stream.resume();
      await store.remove(key);
    });

    it('get of a missing key is null', async () => {
      expect(await store.get(objectKey('pictures', 'jpg'))).toBeNull();
    });

    it('stat answers size and last change without the bytes, null for a missing key', async () => {
      const key = objectKey('pictures', 'png');
      const data = Buffer.from(`stat me ${randomUUID()}`);
      await store.put(key, data, 'image/png');
      const stat = await store.stat(key);
      expect(stat?.size).toBe(data.length);
      expect(Math.abs((stat?.lastModified.getTime() ?? 0) - Date.now())).toBeLessThan(5 * 60_000);
      expect(await store.stat(objectKey('pictures', 'png'))).toBeNull();
      await store.remove(key);
    });

    it('lists every object under a prefix in key order, a page of at most 1,000 at a time', async () => {
      const prefix = `listing-${randomUUID()}/`;
      const keys = Array.from({ length: 1003 }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
      for (let i = 0; i < keys.length; i += 50)
        await Promise.all(keys.slice(i, i + 50).map((key) => store.put(key, Buffer.from(key), 'text/plain')));
      await store.put(`other-${prefix}0000`, Buffer.from('x'), 'text/plain');
      const pages: { key: string; size: number; lastModified: Date }[][] = [];
      for await (const page of store.list(prefix)) pages.push(page);
      expect(pages.map((page) => page.length)).toEqual([1000, 3]);
      const listed = pages.flat();
      expect(listed.map((object) => object.key)).toEqual(keys);
      expect(listed[0]?.size).toBe(keys[0]?.length);
      expect(listed[0]?.lastModified).toBeInstanceOf(Date);
      const empty = [];
      for await (const page of store.list(`nothing-${randomUUID()}/`)) empty.push(page);
      expect(empty).toEqual([]);
      for (let i = 0; i < keys.length; i += 50)
        await Promise.all(keys.slice(i, i + 50).map((key) => store.remove(key)));
      await store.remove(`other-${prefix}0000`);
    });

    it('remove then get is null, and removing again is no error', async () => {
      const key = objectKey('pictures', 'jpg');
      await store.put(key, Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg');
      expect(await store.get(key)).not.toBeNull();
      await store.remove(key);
      expect(await store.get(key)).toBeNull();
      await store.remove(key);
    });
  });
}
