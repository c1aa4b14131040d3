// The ended-sessions store on a real PostgreSQL: answers come in bounded pages whatever the table holds, a cursor
// goes on exactly where its page stopped, the last page steps back to catch writes still in flight, and how long
// an id is kept follows the identity provider's access-token lifespan as it stands at each question.
import { randomUUID } from 'node:crypto';
import { createLogger, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { ENDED_PAGE_SIZE, prismaEndedSessions } from '../src/adapters/prisma-stores.ts';

let prisma: PrismaClient;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  await migrate({
    databaseUrl,
    schema: 'auth',
    migrationsDir: new URL('../prisma/migrations', import.meta.url).pathname,
    logger: createLogger('test', 'silent'),
  });
  prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'auth') });
}, 60_000);
afterAll(() => prisma.$disconnect());

/** Follows the pages from `cursor` as a gateway does; answers every id seen and the pages it took. */
async function readAll(store: ReturnType<typeof prismaEndedSessions>, cursor: string, limit?: number) {
  const ids: string[] = [];
  let pages = 0;
  for (;;) {
    const page = await store.since(cursor, limit);
    pages += 1;
    ids.push(...page.sessionIds);
    cursor = page.cursor;
    if (!page.more) return { ids, pages, cursor };
  }
}

describe('ended sessions', () => {
  it('answers in bounded pages that, followed, give every id once, however many there are', async () => {
    const store = prismaEndedSessions(prisma, { schema: 'auth', retainSeconds: async () => 360 });
    const start = (await store.since('')).cursor;
    // Junk enough for several pages, recorded at once (so sharing one ended_at: the id orders them).
    const ended = Array.from({ length: 2 * ENDED_PAGE_SIZE + 17 }, () => randomUUID());
    await store.record(ended);
    const first = await store.since(start);
    expect(first.sessionIds).toHaveLength(ENDED_PAGE_SIZE);
    expect(first.more).toBe(true);
    const { ids, pages } = await readAll(store, start);
    expect(pages).toBe(3);
    expect(ids.sort()).toEqual([...ended].sort());
    // A smaller page asked for is answered; a larger one is cut to the store's.
    expect((await store.since(start, 10)).sessionIds).toHaveLength(10);
    expect((await store.since(start, 1_000_000)).sessionIds).toHaveLength(ENDED_PAGE_SIZE);
  });

  it('steps back after the last page so a write in flight is still seen, and a later end comes next', async () => {
    const store = prismaEndedSessions(prisma, { schema: 'auth', retainSeconds: async () => 360 });
    const { cursor } = await readAll(store, '');
    const later = randomUUID();
    await store.record([later]);
    const next = await readAll(store, cursor);
    expect(next.ids).toContain(later);
  });

  it('keeps ids as long as the access tokens live as the provider says now', async () => {
    let lifespan = 360;
    const store = prismaEndedSessions(prisma, { schema: 'auth', retainSeconds: async () => lifespan });
    const id = randomUUID();
    await store.record([id]);
    await prisma.$executeRawUnsafe(
      `UPDATE auth.ended_sessions SET ended_at = now() - interval '120 seconds' WHERE session_id = '${id}'`,
    );
    expect((await store.since('')).retainSeconds).toBe(360);
    expect((await readAll(store, '')).ids).toContain(id);
    // The realm's lifespan shortened to a minute: an id ended two minutes ago no longer matters.
    lifespan = 60;
    expect((await store.since('')).retainSeconds).toBe(60);
    expect((await readAll(store, '')).ids).not.toContain(id);
  });
});
