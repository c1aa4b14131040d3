// Object keys, media URLs and the object store's settings: server-made keys in the one shape /media/ serves.
import { loadConfig } from '@rotunda/service-kit';
import { describe, expect, it } from 'vitest';
import { objectStoreConfigFrom, objectStoreConfigSchema } from '../src/config.ts';
import { isMediaKey, MEDIA_PREFIX, mediaKeyOf, mediaUrl, objectKey } from '../src/keys.ts';

describe('objectKey', () => {
  it('makes `<kind>/<yyyy>/<mm>/<uuid>.<ext>` keys, new each time', () => {
    const now = new Date();
    const month = String(now.getUTCMonth() + 1).padStart(2, '0');
    const key = objectKey('logos', 'png');
    expect(key).toMatch(new RegExp(`^logos/${now.getUTCFullYear()}/${month}/[0-9a-f-]{36}\\.png$`));
    expect(isMediaKey(key)).toBe(true);
    expect(isMediaKey(objectKey('pictures', 'jpg'))).toBe(true);
    expect(objectKey('logos', 'png')).not.toBe(key);
  });

  it('refuses kinds and extensions outside the two of each', () => {
    expect(() => objectKey('../etc' as 'logos', 'png')).toThrow(TypeError);
    expect(() => objectKey('logos', 'svg' as 'png')).toThrow(TypeError);
  });
});

describe('media keys and URLs', () => {
  it('accepts only the shape objectKey makes', () => {
    for (const key of [
      '',
      'logos/2026/1/3f1c2f4e-1b2a-4c3d-9e8f-0a1b2c3d4e5f.png',
      'avatars/2026/01/3f1c2f4e-1b2a-4c3d-9e8f-0a1b2c3d4e5f.png',
      'logos/2026/01/3f1c2f4e-1b2a-4c3d-9e8f-0a1b2c3d4e5f.gif',
      'logos/2026/01/../../../../etc/passwd',
      'logos/2026/01/3F1C2F4E-1B2A-4C3D-9E8F-0A1B2C3D4E5F.png',
      '/logos/2026/01/3f1c2f4e-1b2a-4c3d-9e8f-0a1b2c3d4e5f.png',
      'logos/2026/01/3f1c2f4e-1b2a-4c3d-9e8f-0a1b2c3d4e5f.png\n',
    ])
      expect(isMediaKey(key), JSON.stringify(key)).toBe(false);
  });

  it('maps a key to its /media/ URL and back', () => {
    const key = objectKey('pictures', 'jpg');
    expect(mediaUrl(key)).toBe(`${MEDIA_PREFIX}${key}`);
    expect(mediaUrl(key)).toBe(`/media/${key}`);
    expect(mediaKeyOf(mediaUrl(key))).toBe(key);
    expect(mediaKeyOf('https://example.org/logo.png')).toBeNull();
    expect(mediaKeyOf('/media/../secret')).toBeNull();
    expect(() => mediaUrl('../secret')).toThrow(TypeError);
  });
});

describe('objectStoreConfigSchema', () => {
  it('defaults to the embedded S3 endpoint', () => {
    const env = loadConfig(objectStoreConfigSchema, {});
    expect(objectStoreConfigFrom(env)).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      bucket: 'rotunda-media',
      region: 'us-east-1',
    });
  });

  it('names each bad variable', () => {
    expect(() =>
      loadConfig(objectStoreConfigSchema, {
        S3_ENDPOINT: 'ftp://x',
        S3_BUCKET: 'Bad_Bucket',
        S3_ACCESS_KEY: '',
      }),
    ).toThrow(/S3_ENDPOINT[\s\S]*S3_ACCESS_KEY[\s\S]*S3_BUCKET/);
    expect(() => loadConfig(objectStoreConfigSchema, { S3_ENDPOINT: 'http://minio:9000/bucket' })).toThrow(
      /S3_ENDPOINT: must be an origin/,
    );
  });
});
