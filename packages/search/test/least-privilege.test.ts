// The Postgres index under a service's own role (ADR 0039): no right to create schemas or extensions, only its
// own search schema, which the role bootstrap made. The index still builds, fills, searches and rebuilds there,
// and no other service's role can read it.
import { createServiceRoles, createTestDatabase } from '@rotunda/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSearchIndex, type SearchIndex } from '../src/index.ts';
import { CONTRACT_CORPUS, CONTRACT_FIELDS } from '../src/testing/contract.ts';

describe("the Postgres index under a service's own role", () => {
  let profileUrl: string;
  let orgUrl: string;
  let index: SearchIndex;

  beforeAll(async () => {
    const database = await createTestDatabase();
    profileUrl = (await createServiceRoles(database, 'profile')).appUrl;
    orgUrl = (await createServiceRoles(database, 'org')).appUrl;
    index = createPostgresSearchIndex({
      databaseUrl: profileUrl,
      schema: 'profile_search',
      index: 'people',
      ...CONTRACT_FIELDS,
    });
  });
  afterAll(() => index.close());

  it('builds its tables, fills them, answers searches and rebuilds in its own schema', async () => {
    await index.ensure();
    await index.upsert(CONTRACT_CORPUS.slice(0, 4));
    expect((await index.search({ text: 'nurses', offset: 0, limit: 10 })).ids).toEqual(['d01', 'd02']);
    const rebuilt = await index.rebuild({
      eachPage: (handle) => handle(CONTRACT_CORPUS.slice(1, 4)),
      documents: async (ids) => CONTRACT_CORPUS.filter((document) => ids.includes(document.id)),
    });
    expect(rebuilt).toEqual({ rebuilt: true, documents: 3 });
    expect((await index.search({ text: 'nurses', offset: 0, limit: 10 })).ids).toEqual(['d02']);
  });

  it("is closed to every other service's role", async () => {
    const client = new pg.Client({ connectionString: orgUrl });
    await client.connect();
    try {
      await expect(client.query('SELECT * FROM profile_search.people')).rejects.toMatchObject({
        code: '42501',
      });
    } finally {
      await client.end();
    }
  });
});
