// For tests in any workspace: a real S3 endpoint on a free port with a fresh bucket in a temporary folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmbeddedS3, startEmbeddedS3 } from './embedded-s3.ts';

export type TestS3 = EmbeddedS3;

export async function startTestS3(bucket = 'test-bucket'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'rotunda-s3-'));
  const s3 = await startEmbeddedS3({ directory, port: 0, bucket });
  return {
    config: s3.config,
    async stop() {
      await s3.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
