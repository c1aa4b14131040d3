// The object store's settings, validated at start-up by every process that reads or writes images. The
// defaults are the embedded S3 endpoint (s3rver) of the one-machine run, whose credentials are fixed.
import { z } from 'zod';
import type { ObjectStoreConfig } from './object-store.ts';

/** The bucket logos and pictures live in, unless S3_BUCKET names another. */
export const MEDIA_BUCKET = 'rotunda-media';

/** S3's bucket naming rules (3–63 lower-case letters, digits, dots and hyphens). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Spread `.shape` into a process's own schema; read the result with objectStoreConfigFrom. */
export const objectStoreConfigSchema = z.object({
  /** The S3 API's origin; the minio client cannot address a path below it. */
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .refine((value) => ['', '/'].includes(new URL(value).pathname), 'must be an origin, without a path')
    .default('http://127.0.0.1:9000'),
  S3_ACCESS_KEY: z.string().min(1).default('S3RVER'),
  S3_SECRET_KEY: z.string().min(1).default('S3RVER'),
  S3_BUCKET: z
    .string()
    .regex(BUCKET_NAME, 'must be an S3 bucket name (lower-case letters, digits, "." and "-")')
    .default(MEDIA_BUCKET),
  S3_REGION: z.string().min(1).default('us-east-1'),
});

export type ObjectStoreEnv = z.infer<typeof objectStoreConfigSchema>;

export function objectStoreConfigFrom(env: ObjectStoreEnv): ObjectStoreConfig {
  return {
    endpoint: env.S3_ENDPOINT,
    accessKey: env.S3_ACCESS_KEY,
    secretKey: env.S3_SECRET_KEY,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
  };
}
