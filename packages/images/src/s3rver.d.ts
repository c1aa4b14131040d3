// Type declarations for s3rver, which ships none: only what the embedded S3 endpoint uses.
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    port?: number;
    directory?: string;
    silent?: boolean;
    configureBuckets?: { name: string }[];
  }
  /** An object as s3rver's controllers hand it to the store. */
  export interface S3rverObject {
    bucket: string;
    key: string;
    metadata: Record<string, string>;
    content: Buffer | NodeJS.ReadableStream;
  }
  /** The filesystem store behind the endpoint: the parts the embedded endpoint replaces or calls. */
  export interface S3rverStore {
    getResourcePath(bucket: string, key: string, resource: string): string;
    putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
    putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    store: S3rverStore;
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
declare module 's3rver/lib/models/error.js' {
  /** An S3 error answer: its code, message and HTTP status. */
  export default class S3Error extends Error {
    constructor(code: string, message: string);
    code: string;
    status: number;
    expose: boolean;
  }
}
