// The search engine away, without an engine: the writes kept while it is away (the latest of each document, sent
// in the order they were made once it answers, never overtaken by an older copy), what counts as away, and the
// adapter against an address nobody listens on (searches fail as SearchUnavailableError at once; writes resolve,
// kept). The same against the real engine, stopped and started again, is in packages/engines/test/outages.test.ts.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errors } from '@elastic/elasticsearch';
import { describe, expect, it } from 'vitest';
import {
  engineBreaker,
  isEngineUnreachable,
  pendingWrites,
  SEARCH_UNAVAILABLE,
  SearchUnavailableError,
} from '../src/elasticsearch/outage.ts';
import { createElasticsearchIndex } from '../src/index.ts';
import type { SearchDocument } from '../src/port.ts';
import { CONTRACT_FIELDS } from '../src/testing/contract.ts';

const away = () => new errors.ConnectionError('connect ECONNREFUSED 127.0.0.1:9200');
const doc = (id: string, name: string): SearchDocument => ({ id, text: { name }, keywords: {}, sort: {} });
const silent = { warn: () => {}, info: () => {} };
const until = async (check: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('not within time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/** A stand-in engine that is away until `up`, recording what reached it in order. */
function engine() {
  const state = { up: false, log: [] as string[] };
  const send = async (documents: SearchDocument[]) => {
    if (!state.up) throw away();
    for (const document of documents) state.log.push(`upsert ${document.id} ${document.text.name}`);
  };
  const sendRemovals = async (ids: string[]) => {
    if (!state.up) throw away();
    for (const id of ids) state.log.push(`remove ${id}`);
  };
  return { state, writes: pendingWrites({ send, sendRemovals, logger: silent, retryMs: 20 }) };
}

describe('writes kept while the search engine is away', () => {
  it('resolves the owner’s write, and sends the latest of each document in order once the engine is back', async () => {
    const { state, writes } = engine();
    await writes.upsert([doc('1', 'Ada'), doc('2', 'Grace')]);
    await writes.upsert([doc('1', 'Ada Lovelace')]);
    await writes.remove(['2']);
    await writes.upsert([doc('3', 'Edith')]);
    expect(writes.size()).toBe(3);
    expect(state.log).toEqual([]);

    state.up = true;
    await until(() => writes.size() === 0);
    expect(state.log).toEqual(['upsert 1 Ada Lovelace', 'remove 2', 'upsert 3 Edith']);
    writes.close();
  });

  it('queues a write made while others still wait behind them, so an older copy never lands last', async () => {
    const { state, writes } = engine();
    await writes.upsert([doc('1', 'old')]);
    state.up = true;
    // The engine is back but the retry has not run yet: this write goes behind the kept one, replacing it.
    await writes.upsert([doc('1', 'new')]);
    await until(() => writes.size() === 0);
    expect(state.log).toEqual(['upsert 1 new']);
    writes.close();
  });

  it('writes straight through while the engine answers, and lets a refusal through as an error', async () => {
    const { state, writes } = engine();
    state.up = true;
    await writes.upsert([doc('1', 'Ada')]);
    expect(state.log).toEqual(['upsert 1 Ada']);
    const refusing = pendingWrites({
      send: async () => {
        throw new Error('search: Elasticsearch refused 1: mapper_parsing_exception');
      },
      sendRemovals: async () => {},
      logger: silent,
    });
    await expect(refusing.upsert([doc('1', 'Ada')])).rejects.toThrow('mapper_parsing_exception');
    expect(refusing.size()).toBe(0);
    writes.close();
  });

  it('keeps at most its bound, dropping further writes and saying so once', async () => {
    const warnings: string[] = [];
    const writes = pendingWrites({
      send: async () => {
        throw away();
      },
      sendRemovals: async () => {},
      logger: { warn: (_details, message) => warnings.push(message), info: () => {} },
      retryMs: 60_000,
      maxPending: 2,
    });
    await writes.upsert([doc('1', 'a'), doc('2', 'b'), doc('3', 'c'), doc('4', 'd')]);
    expect(writes.size()).toBe(2);
    expect(warnings.filter((message) => message.includes('dropped'))).toHaveLength(1);
    writes.close();
  });
});

describe('what counts as the engine being away', () => {
  it.each([
    ['no connection', new errors.ConnectionError('connect ECONNREFUSED')],
    ['no answer in time', new errors.TimeoutError('Request timed out')],
    ['no living node', new errors.NoLivingConnectionsError('none', { body: undefined } as never)],
  ])('%s', (_what, error) => {
    expect(isEngineUnreachable(error)).toBe(true);
  });

  it('a refusal of the request is not', () => {
    expect(isEngineUnreachable(new Error('search: Elasticsearch refused 1: mapper_parsing_exception'))).toBe(
      false,
    );
  });
});

describe('the Elasticsearch adapter with nobody at its address', () => {
  it('fails a search as unavailable at once, and keeps writes instead of failing them', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const index = createElasticsearchIndex({
      node: `http://127.0.0.1:${port}`,
      index: 'people',
      lockDatabaseUrl: 'postgres://unused',
      pendingRetryMs: 60_000,
      ...CONTRACT_FIELDS,
    });
    const started = performance.now();
    const refused = await index
      .search({ text: 'ada', offset: 0, limit: 10 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SearchUnavailableError);
    expect(refused).toMatchObject({ message: SEARCH_UNAVAILABLE, dependency: 'search' });
    await expect(index.upsert([doc('1', 'Ada')])).resolves.toBeUndefined();
    await expect(index.remove(['2'])).resolves.toBeUndefined();
    expect(performance.now() - started).toBeLessThan(2_000);
    await index.close();
  });
});

describe('an engine known to be away', () => {
  it('fails calls at once, lets one through after the pause to try it, and is back with the first answer', async () => {
    const breaker = engineBreaker(100);
    let reached = 0;
    const refused = () =>
      breaker.call(async () => {
        reached += 1;
        throw away();
      });
    await expect(refused()).rejects.toBeInstanceOf(errors.ConnectionError);
    // engineCall tried the fast failure once more.
    expect(reached).toBe(2);
    const started = performance.now();
    await expect(refused()).rejects.toBeInstanceOf(errors.ConnectionError);
    expect(reached).toBe(2);
    expect(performance.now() - started).toBeLessThan(50);

    await new Promise((resolve) => setTimeout(resolve, 120));
    let answer: (value: string) => void = () => {};
    const trial = breaker.call(
      () =>
        new Promise<string>((resolve) => {
          reached += 1;
          answer = resolve;
        }),
    );
    // While the one trial waits on the engine, the others still fail at once.
    await expect(refused()).rejects.toBeInstanceOf(errors.ConnectionError);
    expect(reached).toBe(3);
    answer('found');
    await expect(trial).resolves.toBe('found');
    await expect(breaker.call(async () => 'straight through')).resolves.toBe('straight through');
  });

  it('a search against an engine that accepts but never answers: 503 within the deadline, then at once', async () => {
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const index = createElasticsearchIndex({
      node: `http://127.0.0.1:${port}`,
      index: 'people',
      lockDatabaseUrl: 'postgres://unused',
      pendingRetryMs: 60_000,
      awayRecheckMs: 60_000,
      ...CONTRACT_FIELDS,
    });
    const timed = async () => {
      const started = performance.now();
      const error = await index
        .search({ text: 'ada', offset: 0, limit: 10 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SearchUnavailableError);
      return performance.now() - started;
    };
    expect(await timed()).toBeLessThan(3_000);
    for (let i = 0; i < 5; i++) expect(await timed()).toBeLessThan(100);
    await index.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});
