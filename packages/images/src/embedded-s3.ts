// A real S3 endpoint from the s3rver package: the one-machine default's object store (npm start) and the
// one tests write to. It accepts only its fixed credentials, S3RVER / S3RVER.
import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';
import type { ObjectStoreConfig } from './object-store.ts';

export interface EmbeddedS3 {
  config: ObjectStoreConfig & { region: string };
  stop(): Promise<void>;
}

/** Serves S3 on 127.0.0.1:port (0: any free port) from `directory`, with the bucket created. */
export async function startEmbeddedS3(options: {
  directory: string;
  port: number;
  bucket: string;
}): Promise<EmbeddedS3> {
  mkdirSync(options.directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port,
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: options.bucket }],
  });
  const { port } = await server.run();
  return {
    config: {
      endpoint: `http://127.0.0.1:${port}`,
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      bucket: options.bucket,
      region: 'us-east-1',
    },
    stop: () => server.close(),
  };
}
