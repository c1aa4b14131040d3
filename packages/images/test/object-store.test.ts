// Runs the object-store contract against a real embedded S3 endpoint (s3rver, always) and a real S3 server (when
// MINIO_URL, MINIO_ACCESS_KEY and MINIO_SECRET_KEY name one: SeaweedFS under `npm run test:engines`, or MinIO),
// plus how failures surface.
import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { Client } from 'minio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createObjectStore, ObjectStoreUnavailableError } from '../src/object-store.ts';
import { startTestS3 } from '../src/testing.ts';
import { objectStoreContract } from './object-store-contract.ts';

objectStoreContract('s3rver', { start: () => startTestS3() });

const minio = {
  url: process.env.MINIO_URL,
  accessKey: process.env.MINIO_ACCESS_KEY,
  secretKey: process.env.MINIO_SECRET_KEY,
};
if (minio.url && minio.accessKey && minio.secretKey) {
  const { url, accessKey, secretKey } = minio;
  objectStoreContract('s3 server', {
    // A bucket of its own per run, so the suite never touches anything it did not make; emptied by the
    // cases themselves and removed at the end.
    start: async () => {
      const bucket = `rotunda-contract-${randomUUID()}`;
      const endpoint = new URL(url);
      const useSSL = endpoint.protocol === 'https:';
      const admin = new Client({
        endPoint: endpoint.hostname,
        port: endpoint.port ? Number(endpoint.port) : useSSL ? 443 : 80,
        useSSL,
        accessKey,
        secretKey,
        pathStyle: true,
      });
      return {
        config: { endpoint: url, accessKey, secretKey, bucket },
        stop: () => admin.removeBucket(bucket),
      };
    },
  });
} else if (process.env.ENGINES_REQUIRED === 'true') {
  // The real-engine run must not pass by running nothing.
  describe('object store contract s3 server', () => {
    it('has a real S3 server to run against', () => {
      expect.fail(
        'ENGINES_REQUIRED=true but MINIO_URL, MINIO_ACCESS_KEY and MINIO_SECRET_KEY are not all set',
      );
    });
  });
} else {
  console.log(
    'object store contract s3 server: SKIPPED — set MINIO_URL, MINIO_ACCESS_KEY and MINIO_SECRET_KEY to run it (npm run test:engines does)',
  );
  objectStoreContract('s3 server', null);
}

describe('object store failures', () => {
  it('an endpoint nobody listens on is unavailable, not a crash', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const store = createObjectStore({
      endpoint: `http://127.0.0.1:${port}`,
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      bucket: 'test-bucket',
    });
    await expect(store.get('logos/2026/01/x.png')).rejects.toBeInstanceOf(ObjectStoreUnavailableError);
    await expect(store.put('k', Buffer.from('x'), 'image/png')).rejects.toBeInstanceOf(
      ObjectStoreUnavailableError,
    );
  });

  describe('an endpoint that accepts connections but never answers', () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    beforeAll(() => new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve)));
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('times out as unavailable', async () => {
      const { port } = silent.address() as { port: number };
      const store = createObjectStore({
        endpoint: `http://127.0.0.1:${port}`,
        accessKey: 'S3RVER',
        secretKey: 'S3RVER',
        bucket: 'test-bucket',
        timeoutMs: 300,
      });
      const started = performance.now();
      await expect(store.get('logos/2026/01/x.png')).rejects.toMatchObject({
        detail: expect.stringMatching(/did not answer within 300 ms/),
      });
      expect(performance.now() - started).toBeLessThan(2000);
    });
  });
});
