// A real S3 endpoint from the s3rver package: the one-machine default's object store (npm start) and the
// one tests write to. It accepts only its fixed credentials, S3RVER / S3RVER.
//
// s3rver's own write of an object leaves its file stream's errors unhandled: a full disk (ENOSPC) would crash the
// process it runs in (the apphost, with everything it supervises) and leave a truncated object behind, already
// acknowledged. Its store's putObject is replaced by one that writes a file of its own, renames it into place only
// once every byte is on disk, and fails the upload when it cannot (a full disk as MinIO says it, XMinioStorageFull
// with HTTP 507; anything else as InternalError); nothing half-written is ever served.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver, { type S3rverObject, type S3rverStore } from 's3rver';
import S3Error from 's3rver/lib/models/error.js';
import type { ObjectStoreConfig } from './object-store.ts';

export interface EmbeddedS3 {
  config: ObjectStoreConfig & { region: string };
  stop(): Promise<void>;
}

/** What MinIO answers when its drives are full: not an error to retry at once, and one the client can name. */
function storageFull(): Error {
  const error = new S3Error(
    'XMinioStorageFull',
    'Storage backend has reached its minimum free drive threshold.',
  );
  error.status = 507;
  error.expose = true;
  return error;
}

/** s3rver's putObject, written to a file of its own and renamed into place only when complete. */
export function wholeOrNothingPut(store: S3rverStore) {
  return async (object: S3rverObject): Promise<{ size: number; md5: string }> => {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(objectPath), { recursive: true });
    const partial = `${objectPath}.${randomUUID()}.partial`;
    const md5 = createHash('md5');
    let size = 0;
    const counting = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        md5.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    const content = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
    // Piped, not part of the pipeline: a failed write must not destroy the request (its connection would be cut
    // before the error answer, and the client's next call on it reset); the rest of its body is read and dropped.
    content.pipe(counting);
    try {
      await pipeline(counting, createWriteStream(partial));
      const digest = md5.digest('hex');
      // The metadata before the object: a reader finds an object only once both are there (keys are never reused).
      await store.putMetadata(object.bucket, object.key, object.metadata, digest);
      await rename(partial, objectPath);
      return { size, md5: digest };
    } catch (error) {
      content.unpipe(counting);
      content.resume();
      await rm(partial, { force: true });
      const code = (error as { code?: unknown }).code;
      if (code === 'ENOSPC' || code === 'EDQUOT') throw storageFull();
      throw error;
    }
  };
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
  server.store.putObject = wholeOrNothingPut(server.store);
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
