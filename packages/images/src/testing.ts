// For tests in any workspace: a real S3 endpoint (s3rver) on a free port with a fresh bucket, and the object
// store config that reaches it. s3rver accepts only its fixed credentials, S3RVER / S3RVER.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { ObjectStoreConfig } from './object-store.ts';

export interface TestS3 {
  config: ObjectStoreConfig & { region: string };
  /** Stops the endpoint and deletes its files. */
  stop(): Promise<void>;
}

export async function startTestS3(bucket = 'test-bucket'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'rotunda-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    config: {
      endpoint: `http://127.0.0.1:${port}`,
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      bucket,
      region: 'us-east-1',
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
