// The image pipeline and the object store: what the services that own images (org, profile) write with, and
// what the gateway serves /media/ from; and the sweep that removes uploads no record took.
export {
  MEDIA_BUCKET,
  type ObjectStoreEnv,
  objectStoreConfigFrom,
  objectStoreConfigSchema,
} from './config.ts';
export { type EmbeddedS3, startEmbeddedS3 } from './embedded-s3.ts';
export {
  isMediaKey,
  MEDIA_KEY_PATTERN,
  MEDIA_PREFIX,
  type MediaExtension,
  type MediaKind,
  mediaKeyOf,
  mediaUrl,
  objectKey,
} from './keys.ts';
export {
  createObjectStore,
  type ListedObject,
  type ObjectStore,
  type ObjectStoreConfig,
  ObjectStoreUnavailableError,
  removeQuietly,
  type StoredObject,
  UPLOADS_FULL,
  UPLOADS_UNAVAILABLE,
} from './object-store.ts';
export { isAttachableUpload, type OrphanSweeper, startOrphanSweeper, sweepOrphanUploads } from './orphans.ts';
export { MAX_INPUT_PIXELS, type ProcessedImage, processImage } from './process.ts';
