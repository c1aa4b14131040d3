// A profile picture upload while the upload store cannot take it, over real gRPC (ADR 0048): with the S3 server
// away or full, UploadPicture answers UNAVAILABLE with words for the member (the gateway's 503), never INTERNAL, and
// nothing is half-written: the profile keeps showing its picture, whose object is still there.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { status } from '@grpc/grpc-js';
import { createObjectStore, mediaKeyOf, UPLOADS_FULL, UPLOADS_UNAVAILABLE } from '@rotunda/images';
import type { Caller } from '@rotunda/service-kit';
import { refusal } from '@rotunda/service-kit/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfileService } from '../src/domain/profile-service.ts';
import { demoOrgData } from './support/fake-services.ts';
import { type ProfileUnderTest, serveProfile, startProfileUnderTest } from './support/profile-under-test.ts';

let service: ProfileUnderTest;
let fullStore: Server;
const closers: (() => Promise<void>)[] = [];

const picture = () =>
  sharp({ create: { width: 600, height: 800, channels: 3, background: '#2a7f62' } })
    .png()
    .toBuffer();

/** The same profile service on the same database, writing its uploads to the store at `endpoint`. */
async function withStoreAt(endpoint: string) {
  const store = createObjectStore({
    endpoint,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    bucket: 'profile-store',
  });
  const served = await serveProfile(
    {
      ...service.services,
      profiles: createProfileService({ ...service.profileDependencies, store }),
    },
    service.logger,
  );
  closers.push(served.close);
  return served;
}

beforeAll(async () => {
  service = await startProfileUnderTest('profile-store-outage', { org: demoOrgData() });
  // An S3 server that answers every upload as MinIO does when its drives are full.
  fullStore = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      response
        .writeHead(507, { 'content-type': 'application/xml' })
        .end('<?xml version="1.0"?><Error><Code>XMinioStorageFull</Code><Message>full</Message></Error>'),
    );
  });
  await new Promise<void>((resolve) => fullStore.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const close of closers) await close();
  await new Promise((resolve) => fullStore.close(resolve));
  await service.close();
});

async function closedEndpoint(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

describe('uploading a picture while the store cannot take it', () => {
  it.each([
    ['away', closedEndpoint, UPLOADS_UNAVAILABLE],
    ['full', async () => `http://127.0.0.1:${(fullStore.address() as AddressInfo).port}`, UPLOADS_FULL],
  ])(
    'answers UNAVAILABLE while the store is %s, and the profile keeps its picture',
    async (_state, endpoint, text) => {
      const owner: Caller = { userId: `user-${randomUUID()}`, email: 'owner@demo.ca.gov', roles: [] };
      const { url } = await service.rpc('uploadPicture', { image: await picture() }, owner);
      const profile = await service.rpc(
        'createProfile',
        {
          fields: {
            profile_picture: url,
            first_name: 'Store',
            last_name: 'Outage',
            work_email: `${randomUUID().slice(0, 8)}@agency.example.org`,
            other_phone: '9165550100',
          },
        },
        owner,
      );

      const cut = await withStoreAt(await endpoint());
      const refused = await refusal(
        cut.rpc('uploadPicture', { image: await picture(), profile_id: profile.profile_id }, owner),
      );
      expect(refused).toEqual({ code: status.UNAVAILABLE, details: text });

      const after = await service.rpc('getProfile', { profile_id: profile.profile_id }, owner);
      expect(after.profile_picture).toBe(url);
      expect(await service.store.stat(mediaKeyOf(url) ?? '')).not.toBeNull();
    },
  );
});
