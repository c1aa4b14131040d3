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
