// The real S3 server stopped and started again (`npm run test:engines`, through ENGINES_CONTROL_URL): while it is
// away an upload and a read fail as ObjectStoreUnavailableError (the product's 503 "try again shortly") within the
// upload deadline; within 10 s of its return (started: it took a write) the same client stores uploads again and
// every object stored before is intact.
// Skipped without the engines, failing instead when ENGINES_REQUIRED=true.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createObjectStore, ObjectStoreUnavailableError } from '../src/object-store.ts';

const url = process.env.MINIO_URL;
const accessKey = process.env.MINIO_ACCESS_KEY;
const secretKey = process.env.MINIO_SECRET_KEY;
const control = process.env.ENGINES_CONTROL_URL;

async function engine(action: 'stop' | 'start'): Promise<number> {
  const response = await fetch(`${control}/engines/s3/${action}`, { method: 'POST' });
  if (!response.ok) throw new Error(`engine control: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { ms: number }).ms;
}

const bytesOf = async (stream: NodeJS.ReadableStream | undefined) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream ?? []) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

if (!(url && accessKey && secretKey && control)) {
  if (process.env.ENGINES_REQUIRED === 'true')
    describe('uploads while the S3 server is stopped', () => {
      it('has the engines and their control', () => {
        expect.fail('ENGINES_REQUIRED=true but MINIO_URL, its keys or ENGINES_CONTROL_URL is not set');
      });
    });
  else {
    console.log('uploads while the S3 server is stopped: SKIPPED — run by npm run test:engines');
    describe.skip('uploads while the S3 server is stopped', () => {
      it('runs against the engines', () => {});
    });
  }
} else {
  const bucket = `rotunda-outage-${randomUUID()}`;
  const store = createObjectStore({ endpoint: url, accessKey, secretKey, bucket });
  const keys: string[] = [];
  afterAll(async () => {
    for (const key of keys) await store.remove(key).catch(() => undefined);
  });

  describe('uploads while the S3 server is stopped', () => {
    it('refuses uploads as unavailable, loses nothing, and takes them again within 10 s of its return', async () => {
      await store.ensureBucket();
      const shown = `pictures/2026/12/${randomUUID()}.jpg`;
      const bytes = Buffer.from(randomUUID().repeat(100));
      keys.push(shown);
      await store.put(shown, bytes, 'image/jpeg');

      await engine('stop');
      let started = performance.now();
      const upload = `pictures/2026/12/${randomUUID()}.jpg`;
      keys.push(upload);
      await expect(store.put(upload, bytes, 'image/jpeg')).rejects.toBeInstanceOf(
        ObjectStoreUnavailableError,
      );
      await expect(store.get(shown)).rejects.toBeInstanceOf(ObjectStoreUnavailableError);
      const refusedMs = performance.now() - started;
      // The gateway's upload deadline is 15 s; the store gives up well inside it.
      expect(refusedMs).toBeLessThan(5_000);

      const healthyMs = await engine('start');
      // The engine counts as started once a write lands (packages/engines' readiness), not when its port answers.
      // The product's own client, the one that failed during the outage, within 10 s of that.
      started = performance.now();
      for (;;) {
        const stored = await store.put(upload, bytes, 'image/jpeg').then(
          () => true,
          () => false,
        );
        if (stored) break;
        if (performance.now() - started > 10_000) throw new Error('uploads not taken again within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const recoveredMs = performance.now() - started;
      expect((await bytesOf((await store.get(shown))?.stream)).equals(bytes)).toBe(true);
      expect((await store.stat(upload))?.size).toBe(bytes.length);
      console.log(
        `outage figures: s3 upload and read refused in ${Math.round(refusedMs)} ms while stopped; server healthy ` +
          `${(healthyMs / 1000).toFixed(1)} s after its start (a write landed); the product's client stored an ` +
          `upload ${Math.round(recoveredMs)} ms after that`,
      );
    }, 300_000);
  });
}
