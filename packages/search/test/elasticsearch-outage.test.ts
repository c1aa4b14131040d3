// The search engine away, without an engine: what counts as away, the breaker that stops waiting on it (a probe,
// never a member's call, tries it again), and the adapter against an address nobody listens on (searches fail as
// SearchUnavailableError at once, writes as unreachable for the outbox to keep: outbox.test.ts). The same against
// the real engine, stopped and started again, is in packages/engines/test/outages.test.ts.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errors } from '@elastic/elasticsearch';
import { describe, expect, it } from 'vitest';
import {
  engineBreaker,
  isEngineUnreachable,
  SEARCH_UNAVAILABLE,
  SearchUnavailableError,
} from '../src/elasticsearch/outage.ts';
import { createElasticsearchIndex } from '../src/index.ts';
import type { SearchDocument } from '../src/port.ts';
import { CONTRACT_FIELDS } from '../src/testing/contract.ts';

const away = () => new errors.ConnectionError('connect ECONNREFUSED 127.0.0.1:9200');
const doc = (id: string, name: string): SearchDocument => ({ id, text: { name }, keywords: {}, sort: {} });

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
  it('fails a search as unavailable at once, and writes as unreachable, for the outbox to keep', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const index = createElasticsearchIndex({
      node: `http://127.0.0.1:${port}`,
      index: 'people',
      lockDatabaseUrl: 'postgres://unused',
      ...CONTRACT_FIELDS,
    });
    const started = performance.now();
    const refused = await index
      .search({ text: 'ada', offset: 0, limit: 10 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SearchUnavailableError);
    expect(refused).toMatchObject({ message: SEARCH_UNAVAILABLE, dependency: 'search' });
    const missed = await index.upsert([doc('1', 'Ada')]).catch((error: unknown) => error);
    expect(isEngineUnreachable(missed)).toBe(true);
    await expect(index.remove(['2'])).rejects.toBeInstanceOf(errors.ConnectionError);
    expect(performance.now() - started).toBeLessThan(2_000);
    await index.close();
  });
});

describe('an engine known to be away', () => {
  it('fails every call at once, tries the engine with its probe, never a member’s call, and is back with its answer', async () => {
    let engineUp = false;
    let probes = 0;
    const breaker = engineBreaker(async () => {
      probes += 1;
      if (!engineUp) throw away();
    }, 50);
    let reached = 0;
    const call = () =>
      breaker.call(async () => {
        reached += 1;
        if (!engineUp) throw away();
        return 'found';
      });
    await expect(call()).rejects.toBeInstanceOf(errors.ConnectionError);
    // engineCall tried the fast failure once more.
    expect(reached).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 180));
    const started = performance.now();
    await expect(call()).rejects.toBeInstanceOf(errors.ConnectionError);
    expect(performance.now() - started).toBeLessThan(50);
    // The probes tried it meanwhile; no member's call reached the engine.
    expect(probes).toBeGreaterThanOrEqual(2);
    expect(reached).toBe(2);

    engineUp = true;
    const back = performance.now();
    while ((await call().catch(() => 'away')) === 'away')
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(performance.now() - back).toBeLessThan(500);
    await expect(call()).resolves.toBe('found');
    breaker.close();
  });

  it('a search against an engine that accepts but never answers: 503 within the deadline, then at once', async () => {
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const index = createElasticsearchIndex({
      node: `http://127.0.0.1:${port}`,
      index: 'people',
      lockDatabaseUrl: 'postgres://unused',
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
