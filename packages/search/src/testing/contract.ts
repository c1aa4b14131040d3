// The one contract suite every SearchIndex adapter must pass (Postgres always, Elasticsearch when configured);
// services run it against the adapter their composition root builds. Its cases are in the files named by what they
// test; the corpus they search is corpus.ts.
import { afterAll, beforeAll, beforeEach, describe, it } from 'vitest';
import type { SearchIndex, SearchIndexDefinition, SearchQuery } from '../port.ts';
import { CONTRACT_CORPUS } from './corpus.ts';
import { matchingCases } from './matching-cases.ts';
import { orderCases } from './order-cases.ts';
import { rebuildCases } from './rebuild-cases.ts';
import { scaleCases } from './scale-cases.ts';
import type { ContractSuite } from './suite.ts';
import { writeCases } from './write-cases.ts';

export { CONTRACT_CORPUS, CONTRACT_FIELDS } from './corpus.ts';

export interface SearchIndexContractOptions {
  /** Registers the suite as skipped, printing why (e.g. 'ELASTICSEARCH_URL is not set'). */
  skipReason?: string;
  /**
   * Opens the index makeIndex made (its tables, its alias) with another definition, as the owner's next release
   * would: the definition-change rebuild is tested when given (an engine with no storage of its own has none).
   */
  reopen?: (definition: SearchIndexDefinition) => Promise<SearchIndex>;
}

/**
 * Registers the contract as a vitest describe. makeIndex builds a fresh, empty index with CONTRACT_FIELDS; the
 * suite calls ensure(), owns the index's documents and closes it at the end.
 */
export function searchIndexContract(
  name: string,
  makeIndex: () => Promise<SearchIndex>,
  options: SearchIndexContractOptions = {},
): void {
  if (options.skipReason !== undefined) {
    console.log(`search index contract ${name}: SKIPPED — ${options.skipReason}`);
    describe.skip(`search index contract ${name}`, () => {
      it('is skipped', () => {});
    });
    return;
  }

  describe(`search index contract ${name}`, () => {
    let index: SearchIndex;

    const find = (query: Partial<SearchQuery> = {}) => index.search({ offset: 0, limit: 100, ...query });
    const ids = async (query: Partial<SearchQuery> = {}) => (await find(query)).ids;

    beforeAll(async () => {
      index = await makeIndex();
      await index.ensure();
      // ensure() is idempotent: a second call keeps the index (and would keep its documents).
      await index.ensure();
    });

    beforeEach(async () => {
      await index.clear();
      // Written in reverse so an adapter that returns storage order instead of sorting by id is caught.
      await index.upsert(structuredClone([...CONTRACT_CORPUS].reverse()));
    });

    afterAll(async () => {
      await index?.clear();
      await index?.close();
    });

    const suite: ContractSuite = {
      get index() {
        return index;
      },
      find,
      ids,
    };
    rebuildCases(suite, options.reopen);
    matchingCases(suite);
    orderCases(suite);
    writeCases(suite);
    scaleCases(suite);
  });
}
