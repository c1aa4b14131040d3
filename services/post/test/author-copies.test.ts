// The post schema's read copy of authors (ADR 0012) against a real PostgreSQL: a profile's new name reaches the
// authors the copy holds and only those, and an author removed (their account deleted) between the copy's read
// and its write is left gone without costing the other authors their new names.
import { createLogger, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { prismaCopyStore } from '../src/adapters/prisma-copies.ts';
import { schemaTables } from '../src/adapters/prisma-sql.ts';

const root = new URL('..', import.meta.url).pathname;
let prisma: PrismaClient;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  await migrate({
    databaseUrl,
    schema: 'post',
    migrationsDir: `${root}prisma/migrations`,
    logger: createLogger('post-test', 'warn'),
  });
  prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'post') });
});

afterAll(async () => {
  await prisma?.$disconnect();
});

beforeEach(async () => {
  await prisma.author.deleteMany();
  await prisma.author.createMany({
    data: [
      { profileId: 1, userId: 'u-1', firstName: 'Ada', lastName: 'Lovelace', issueAreaIds: [3] },
      { profileId: 2, userId: 'u-2', firstName: 'Grace', lastName: 'Hopper', issueAreaIds: [] },
    ],
  });
});

const renamed = (profileId: number, lastName: string) => ({
  profileId,
  userId: `u-${profileId}`,
  firstName: profileId === 1 ? 'Ada' : 'Grace',
  lastName,
});

const lastNames = async () =>
  (await prisma.author.findMany({ orderBy: { profileId: 'asc' } })).map((a) => [a.profileId, a.lastName]);

describe('the authors’ read copy', () => {
  it('takes new names for the authors it holds, answers whose changed, and leaves others out', async () => {
    const copies = prismaCopyStore(prisma, schemaTables('post'));
    const changed = await copies.updateKnownAuthors([
      renamed(1, 'King'),
      renamed(2, 'Hopper'),
      renamed(9, 'Nobody'),
    ]);
    expect(changed).toEqual([1]);
    expect(await lastNames()).toEqual([
      [1, 'King'],
      [2, 'Hopper'],
    ]);
    // The issue areas it held stay when the announcement carries none.
    expect((await prisma.author.findUnique({ where: { profileId: 1 } }))?.issueAreaIds).toEqual([3]);
  });

  it('gives the other authors their new names when one is deleted between its read and its write', async () => {
    // The account's deletion lands just after the copy read which authors it holds.
    const racing = prisma.$extends({
      query: {
        author: {
          async findMany({ args, query }) {
            const rows = await query(args);
            await prisma.author.delete({ where: { profileId: 1 } });
            return rows;
          },
        },
      },
    }) as unknown as PrismaClient;
    const copies = prismaCopyStore(racing, schemaTables('post'));
    const changed = await copies.updateKnownAuthors([renamed(1, 'King'), renamed(2, 'Murray')]);
    expect(changed).toEqual([2]);
    expect(await lastNames()).toEqual([[2, 'Murray']]);
  });
});
