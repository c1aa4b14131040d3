// A full upload store: the embedded S3 endpoint on a disk that fills up (a small tmpfs, mounted when this runs as
// root on Linux, as CI and the engines run do) keeps running, refuses the upload as full, keeps every object
// stored before, leaves no partial file, and takes uploads again once there is room; an S3 server's quota and
// full-drive answers are read the same way. The product then answers 503 "try again shortly" and loses nothing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedS3 } from '../src/embedded-s3.ts';
import { createObjectStore, ObjectStoreUnavailableError } from '../src/object-store.ts';

/** A 256 KB tmpfs at a fresh folder, or null where mounting one is not allowed. */
function smallDisk(): { folder: string; release(): void } | null {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return null;
  const folder = mkdtempSync(join(tmpdir(), 'rotunda-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', folder], { stdio: 'ignore' });
  } catch {
    rmSync(folder, { recursive: true, force: true });
    return null;
  }
  return {
    folder,
    release() {
      // Lazily: a file the stopped endpoint has not closed yet would keep the tmpfs "busy" and fail the run; the
      // kernel frees it once the last one is closed.
      execFileSync('umount', ['--lazy', folder]);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

const disk = smallDisk();
if (!disk)
  console.log('embedded S3 on a full disk: SKIPPED — mounting a small tmpfs needs root on Linux (CI has it)');

describe.skipIf(!disk)('the embedded S3 endpoint on a full disk', () => {
  const bucket = 'rotunda-media';
  let s3: Awaited<ReturnType<typeof startEmbeddedS3>>;
  let store: ReturnType<typeof createObjectStore>;
  beforeAll(async () => {
    s3 = await startEmbeddedS3({ directory: join(disk?.folder ?? '', 's3'), port: 0, bucket });
    store = createObjectStore(s3.config);
  });
  afterAll(async () => {
    await s3?.stop();
    disk?.release();
  });

  it('refuses an upload that does not fit as full, keeping what was stored and leaving no partial file', async () => {
    const kept = Buffer.alloc(100_000, 7);
    await store.put('pictures/2026/12/kept.jpg', kept, 'image/jpeg');

    const refused = await store
      .put('pictures/2026/12/too-big.jpg', Buffer.alloc(400_000, 1), 'image/jpeg')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ObjectStoreUnavailableError);
    expect(refused).toMatchObject({ full: true, dependency: 'object-store' });

    // The endpoint (in the apphost's own process under npm start) is still there, and has lost nothing.
    expect(await store.stat('pictures/2026/12/too-big.jpg')).toBeNull();
    const object = await store.get('pictures/2026/12/kept.jpg');
    const chunks: Buffer[] = [];
    for await (const chunk of object?.stream ?? []) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(kept)).toBe(true);
    const files = readdirSync(join(disk?.folder ?? '', 's3', bucket), { recursive: true }).map(String);
    expect(files.filter((name) => name.includes('too-big'))).toEqual([]);
  });

  it('takes uploads again once there is room', async () => {
    await store.remove('pictures/2026/12/kept.jpg');
    await store.put('pictures/2026/12/fits-now.jpg', Buffer.alloc(150_000, 2), 'image/jpeg');
    expect((await store.stat('pictures/2026/12/fits-now.jpg'))?.size).toBe(150_000);
  });
});

describe('an S3 server saying it is full', () => {
  let server: Server;
  let code = 'XMinioStorageFull';
  let status = 507;
  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () =>
        response
          .writeHead(status, { 'content-type': 'application/xml' })
          .end(
            `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>full</Message></Error>`,
          ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each([
    ['XMinioStorageFull', 507],
    ['XMinioAdminBucketQuotaExceeded', 400],
    ['QuotaExceeded', 403],
    ['EntityTooLarge', 400],
  ])('reads %s (HTTP %i) as full, not as a fault of ours', async (answerCode, answerStatus) => {
    code = answerCode;
    status = answerStatus;
    const store = createObjectStore({
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      accessKey: 'key',
      secretKey: 'secret',
      bucket: 'rotunda-media',
    });
    const refused = await store.put('logos/2026/12/x.png', Buffer.from('x'), 'image/png').catch((e) => e);
    expect(refused).toBeInstanceOf(ObjectStoreUnavailableError);
    expect(refused).toMatchObject({ full: true });
  });
});
