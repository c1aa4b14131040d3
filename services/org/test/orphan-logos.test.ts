// The org service's sweep of logos no organization took, against a real PostgreSQL (the org schema) and a real
// S3 endpoint: what the composition root wires (the logos-in-use lookup behind the images package's sweep)
// removes an old logo no organization shows, and keeps every organization's logo, young uploads and pictures.
import {
  createObjectStore,
  mediaUrl,
  type ObjectStore,
  objectKey,
  sweepOrphanUploads,
} from '@rotunda/images';
import { startTestS3, type TestS3 } from '@rotunda/images/testing';
import { createLogger, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { prismaLogosInUse } from '../src/adapters/logo-references.ts';

const logger = createLogger('org-orphans-test', 'silent');
const root = new URL('..', import.meta.url).pathname;

let prisma: PrismaClient;
let s3: TestS3;
let store: ObjectStore;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  await migrate({ databaseUrl, schema: 'org', migrationsDir: `${root}prisma/migrations`, logger });
  prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'org') });
  await prisma.group.create({ data: { groupId: 1, groupName: 'Agencies' } });
  s3 = await startTestS3('org-orphans-test');
  store = createObjectStore(s3.config);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await s3?.stop();
});

async function stored(kind: 'logos' | 'pictures'): Promise<string> {
  const key = objectKey(kind, 'png');
  await store.put(key, Buffer.from('png bytes'), 'image/png');
  return key;
}

const exists = async (key: string) => (await store.stat(key)) !== null;

describe('logos no organization took', () => {
  it('are removed after an hour; every organization’s logo, young uploads and pictures stay', async () => {
    const shown = await stored('logos');
    const sharedLogo = await stored('logos');
    const orphan = await stored('logos');
    const picture = await stored('pictures');
    const organizations: [string, string][] = [
      ['Department of Logos', shown],
      ['Logo Board', sharedLogo],
      ['Logo Commission', sharedLogo],
    ];
    for (const [name, key] of organizations)
      await prisma.organization.create({ data: { organizationName: name, groupId: 1, logo: mediaUrl(key) } });
    const referenced = prismaLogosInUse(prisma);
    expect((await referenced([shown, sharedLogo, orphan])).sort()).toEqual([shown, sharedLogo].sort());
    expect(await referenced([])).toEqual([]);

    const young = await sweepOrphanUploads({ store, kind: 'logos', referenced });
    expect(young.removed).toEqual([]);
    const { removed } = await sweepOrphanUploads({
      store,
      kind: 'logos',
      referenced,
      now: () => Date.now() + 2 * 60 * 60_000,
    });
    expect(removed).toEqual([orphan]);
    expect(await exists(orphan)).toBe(false);
    for (const key of [shown, sharedLogo, picture]) expect(await exists(key), key).toBe(true);
  });
});
