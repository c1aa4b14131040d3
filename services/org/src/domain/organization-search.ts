// The organization list and lookups through the search index (docs/product.md#7-the-calls-it-makes,
// #9-business-constants-and-limits): the list searched by every word of the name, filtered by group and paged
// (the product's own organization never listed), the 5-result autocomplete, and the index kept in step with
// the table (each write's document, a replica's start, the operator's reindex). Knows nothing of gRPC, HTTP
// or Prisma: it works through its ports.
import {
  MAX_RESULT_WINDOW,
  type RebuildOutcome,
  type RebuildSource,
  type SearchDocument,
  type SearchIndex,
  storedCodec,
  syncIndex,
} from '@rotunda/search';
import { invalidArgument } from '@rotunda/service-kit';
import { groupNamed, MESSAGES } from './access.ts';
import type { Organization, OrganizationPage } from './organization.ts';
import type { OrganizationRepository } from './ports.ts';
import { searchWords } from './rules.ts';

/**
 * Page sizes of the organization list (docs/product.md#9-business-constants-and-limits: 30 at first, 30 more
 * at a time).
 */
const PAGE = { default: 30, max: 100 } as const;
/** Autocomplete lists are capped at 5 (docs/product.md#9-business-constants-and-limits). */
export const LOOKUP_LIMIT = 5;
const REINDEX_BATCH = 500;

/**
 * The search index's fields for organizations: text = name; keywords = group, hidden; sort = name. Each document
 * also stores the whole organization, so a list page is answered from the index alone.
 */
export const ORGANIZATION_INDEX = {
  textFields: ['name'],
  keywordFields: ['group', 'hidden'],
  sortFields: [{ name: 'name', type: 'text' as const }],
  stored: true,
};

/**
 * Each document stores its organization, so a list page needs no read of the table; bumped when it changes shape,
 * which makes the next start rebuild the index (syncIndex).
 */
const STORED_ORGANIZATION = storedCodec<Organization>(1);

export function searchDocumentOf(organization: Organization): SearchDocument {
  return {
    id: String(organization.organizationId),
    text: { name: organization.organizationName },
    keywords: { group: [organization.groupName], hidden: [String(organization.hidden)] },
    // Lower-cased so the list reads alphabetically whatever the capitals ('eCivis' next to 'East Bay …').
    sort: { name: organization.organizationName.toLowerCase() },
    stored: STORED_ORGANIZATION.encode(organization),
  };
}

export interface SearchInput {
  text: string;
  group: string;
  offset: number;
  limit: number;
}

export function createOrganizationSearch({
  repository,
  index,
}: {
  repository: Pick<OrganizationRepository, 'findByIds' | 'forEachBatch' | 'count'>;
  index: SearchIndex;
}) {
  /** A page's organizations as the index stored them; any it stored none of are read from the table. */
  const pageOrganizations = (ids: string[], stored: (string | null)[] | undefined) =>
    STORED_ORGANIZATION.page(
      ids,
      stored,
      async (missing) =>
        new Map(
          (await repository.findByIds(missing.map(Number))).map((row) => [String(row.organizationId), row]),
        ),
    );

  /** What a rebuild reads: every organization a batch at a time, and the current ones of ids written meanwhile. */
  const indexSource: RebuildSource = {
    eachPage: (handle) =>
      repository.forEachBatch(REINDEX_BATCH, (batch) => handle(batch.map(searchDocumentOf))),
    documents: async (ids) =>
      (await repository.findByIds(ids.map(Number).filter(Number.isSafeInteger))).map(searchDocumentOf),
  };

  return {
    async searchOrganizations(input: SearchInput): Promise<OrganizationPage> {
      const words = searchWords(input.text);
      const groupName = input.group.trim();
      const group = groupName ? groupNamed(groupName) : undefined;
      if (groupName && !group) throw invalidArgument(MESSAGES.unknownGroup(groupName));
      const limit = input.limit > 0 ? Math.min(Math.floor(input.limit), PAGE.max) : PAGE.default;
      const offset = Math.max(0, Math.floor(input.offset));
      if (offset + limit > MAX_RESULT_WINDOW)
        throw invalidArgument(
          `The list goes at most ${MAX_RESULT_WINDOW} organizations deep; search to narrow it.`,
        );
      const { ids, total, stored } = await index.search({
        text: words.join(' '),
        ...(group ? { filters: { group: group.groupName } } : {}),
        exclude: { hidden: ['true'] },
        sort: [{ field: 'name', direction: 'asc' }],
        offset,
        limit,
        withStored: true,
      });
      return { organizations: await pageOrganizations(ids, stored), total };
    },

    /**
     * Autocomplete (docs/product.md#4-states-and-transitions): every word in the name, any case, at most 5,
     * by name.
     */
    async findOrganizationsByName(name: string): Promise<Organization[]> {
      const words = searchWords(name);
      if (words.length === 0) return [];
      const { ids, stored } = await index.search({
        text: words.join(' '),
        sort: [{ field: 'name', direction: 'asc' }],
        offset: 0,
        limit: LOOKUP_LIMIT,
        withStored: true,
      });
      return pageOrganizations(ids, stored);
    },

    /** Every write that changes an organization rewrites its document: the list shows what the index stored. */
    organizationChanged: (organization: Organization) => index.upsert([searchDocumentOf(organization)]),

    /**
     * Brings the search index in step when a replica starts: rebuilt into a new generation when it was built for
     * another definition, does not hold as many organizations as the table or stores them in an older shape, by
     * whichever replica takes the lock (the others serve the live index meanwhile). Answers how many were indexed
     * (0 when it was in step, or when another replica is rebuilding it).
     */
    async syncSearchIndex(): Promise<number> {
      const result = await syncIndex(index, {
        source: indexSource,
        count: () => repository.count(),
        stored: STORED_ORGANIZATION,
      });
      return result.outcome === 'rebuilt' ? result.documents : 0;
    },

    /**
     * Rebuilds the index from the table whatever it holds (the operator's `reindex`): a new generation, switched
     * to at once, searches answering from the old one meanwhile. `rebuilt: false` when another process is
     * rebuilding it.
     */
    reindexAll(): Promise<RebuildOutcome> {
      return index.rebuild(indexSource);
    },
  };
}

export type OrganizationSearch = ReturnType<typeof createOrganizationSearch>;
