// The people directory (docs/product.md#2-screens-and-routes Directory screen, #5-validation-rules searches:
// directory, #9-business-constants-and-limits): one page at a time, searched, filtered and ordered by the
// search index. Every word of a search must be in a first or last name, or in a current job's title,
// organization or division; the group filter takes an organization group of a current job, 'Elected
// Officials' (a current title of the spec's list) or 'Other' (a current organization in the group Other, or
// none at all); the issue filter an issue area the person covers. The index learns a person again after each
// write that changes what it holds of them, and everyone working at an organization or division whose name
// the org service changed.
import { ELECTED_OFFICIALS_GROUP, isElectedOfficialTitle, OTHER_GROUP, tooLongMessage } from '@rotunda/rules';
import {
  MAX_RESULT_WINDOW,
  type RebuildOutcome,
  type RebuildSource,
  type SearchDocument,
  type SearchIndex,
  type SearchIndexDefinition,
  type SearchQuery,
  storedCodec,
  syncIndex,
} from '@rotunda/search';
import { type Caller, invalidArgument, requireMember } from '@rotunda/service-kit';
import { searchWords } from './rules.ts';
import { isVerifiedEmployer } from './verified-employer.ts';

/**
 * The fields the people index holds. The order is one key, last name then first name: one sort index serves it
 * whole, where two keys make every page sort all the people sharing the first last name. The group filter's field
 * is `directory_group` (it was `group` before people without a current organization were filed under 'Other'): the
 * new name makes an index built before that 'outdated', so every replica's start rebuilds it before it answers.
 */
export const PEOPLE_INDEX: SearchIndexDefinition = {
  textFields: ['first_name', 'last_name', 'title', 'organization', 'division'],
  keywordFields: ['directory_group', 'issue'],
  sortFields: [{ name: 'name', type: 'text' }],
  stored: true,
};

/**
 * Each document stores its person's card, so a page is answered from the index alone (no read of the tables per
 * page); bumped when the card changes shape, which makes the next start rebuild the index (syncIndex).
 */
const STORED_CARD = storedCodec<DirectoryCard>(3);

/** The directory's order: last name, then first name, then id. */
export const DIRECTORY_ORDER: SearchQuery['sort'] = [{ field: 'name', direction: 'asc' }];

/** Sorts before every character of a name, so 'Lee' + first name comes before 'Leeds' + first name. */
const NAME_SEPARATOR = '\u0001';

/** Pages of the directory (docs/product.md#9-business-constants-and-limits: 30, growing by 30). */
export const DIRECTORY_PAGE = { default: 30, max: 100 } as const;
/** The longest group name a filter may name. */
const GROUP_MAX = 100;
/**
 * Matches are counted up to this many ("1,000+ people"), or one past the requested page when deeper, so the
 * screen knows there is more to load: counting a whole state's people costs more than the page itself.
 */
export const COUNT_UP_TO = 1000;
/** Profiles read and indexed per batch when the index is rebuilt or an organization renamed. */
const INDEX_BATCH = 1000;

/**
 * What the index holds of one person: their names and picture, their current jobs' titles, places, groups and
 * towns, latest first (the card shows the first), and their issue areas.
 */
export interface DirectoryEntry {
  profileId: number;
  firstName: string;
  lastName: string;
  /** The name the person goes by; absent or null when not given. */
  preferredName?: string | null;
  profilePicture: string | null;
  /** The domain of the owner's account email; null when nobody owns the profile. */
  ownerEmailDomain: string | null;
  currentJobs: {
    title: string;
    organizationName: string;
    /** The organization's domains that count for a verified employer. */
    emailDomains: string[];
    groupType: string;
    divisionName: string | null;
    city: string | null;
    state: string | null;
  }[];
  issueIds: number[];
}

/** One person as the directory's card shows them, from their latest current job. */
export interface DirectoryCard {
  profileId: number;
  firstName: string;
  lastName: string;
  /** Shown in place of the first name when given. */
  preferredName: string | null;
  profilePicture: string | null;
  title: string | null;
  organizationName: string | null;
  divisionName: string | null;
  groupType: string | null;
  city: string | null;
  state: string | null;
  /** The "Verified employer" badge, as on the profile. */
  verifiedEmployer: boolean;
}

export interface DirectoryRepository {
  /** The entries of these profiles (those that exist). */
  directoryEntries(profileIds: readonly number[]): Promise<DirectoryEntry[]>;
  /** Entries after `afterProfileId`, by id, at most `limit`. */
  directoryEntriesAfter(afterProfileId: number, limit: number): Promise<DirectoryEntry[]>;
  countProfiles(): Promise<number>;
  /** Profiles with a current job at any of these organizations or divisions. */
  profileIdsWorkingAt(at: {
    organizationIds: readonly number[];
    divisionIds: readonly number[];
  }): Promise<number[]>;
  /** The cards of these profiles, in the order given (missing ones left out), read from the tables. */
  directoryCards(profileIds: readonly number[]): Promise<DirectoryCard[]>;
}

export interface DirectoryQuery {
  search: string;
  group: string;
  issueId: number | null;
  offset: number;
  limit: number;
}

/** Text fields hold every current job's value, one per line: no query word spans two lines. */
const lines = (values: readonly (string | null)[]) =>
  [...new Set(values.filter((value): value is string => !!value))].join('\n');

/** The directory card of an entry: the latest current job's, or none. */
function directoryCardOf(entry: DirectoryEntry): DirectoryCard {
  const job = entry.currentJobs[0];
  return {
    profileId: entry.profileId,
    firstName: entry.firstName,
    lastName: entry.lastName,
    preferredName: entry.preferredName ?? null,
    profilePicture: entry.profilePicture,
    title: job?.title ?? null,
    // A job at an organization the read copy does not (yet) know has no name or group there.
    organizationName: job?.organizationName || null,
    divisionName: job?.divisionName ?? null,
    groupType: job?.groupType || null,
    city: job?.city ?? null,
    state: job?.state ?? null,
    verifiedEmployer: isVerifiedEmployer(
      entry.ownerEmailDomain,
      entry.currentJobs.map((current) => current.emailDomains),
    ),
  };
}

export function peopleDocumentOf(entry: DirectoryEntry): SearchDocument {
  const groups = new Set(entry.currentJobs.map((job) => job.groupType).filter((group) => group !== ''));
  if (entry.currentJobs.some((job) => isElectedOfficialTitle(job.title))) groups.add(ELECTED_OFFICIALS_GROUP);
  if (entry.currentJobs.length === 0) groups.add(OTHER_GROUP);
  return {
    id: String(entry.profileId),
    text: {
      // Either name a person goes by finds them: "Liz" and "Elizabeth" alike.
      first_name: lines([entry.firstName, entry.preferredName ?? null]),
      last_name: entry.lastName,
      title: lines(entry.currentJobs.map((job) => job.title)),
      organization: lines(entry.currentJobs.map((job) => job.organizationName)),
      division: lines(entry.currentJobs.map((job) => job.divisionName)),
    },
    keywords: { directory_group: [...groups], issue: entry.issueIds.map(String) },
    sort: { name: `${entry.lastName}${NAME_SEPARATOR}${entry.firstName}`.toLowerCase() },
    stored: STORED_CARD.encode(directoryCardOf(entry)),
  };
}

/** What selects people, without the paging: a search's words, a group and an issue. */
export type DirectoryFilters = Pick<DirectoryQuery, 'search' | 'group' | 'issueId'>;

/** The filters checked (INVALID_ARGUMENT otherwise), the search's words single-spaced and the group trimmed. */
export function checkFilters<Q extends DirectoryFilters>(query: Q): Q {
  const words = searchWords(query.search);
  const group = query.group.trim();
  if (group.length > GROUP_MAX) throw invalidArgument(tooLongMessage('group', GROUP_MAX));
  if (query.issueId !== null && !(Number.isSafeInteger(query.issueId) && query.issueId > 0))
    throw invalidArgument('issue must be a whole number above 0');
  return { ...query, search: words.join(' '), group };
}

function checkQuery(input: DirectoryQuery): DirectoryQuery {
  const query = checkFilters(input);
  if (!Number.isSafeInteger(query.limit) || query.limit < 1 || query.limit > DIRECTORY_PAGE.max)
    throw invalidArgument(`limit must be from 1 to ${DIRECTORY_PAGE.max}`);
  if (
    !Number.isSafeInteger(query.offset) ||
    query.offset < 0 ||
    query.offset + query.limit > MAX_RESULT_WINDOW
  )
    throw invalidArgument(
      `The directory goes at most ${MAX_RESULT_WINDOW} people deep; search to narrow it.`,
    );
  return query;
}

/** The index query's filters of a checked query. */
const indexFilters = (query: DirectoryFilters) => ({
  ...(query.group ? { directory_group: query.group } : {}),
  ...(query.issueId === null ? {} : { issue: String(query.issueId) }),
});

export function createPeopleDirectory({
  repository,
  index,
  countUpTo = COUNT_UP_TO,
}: {
  repository: DirectoryRepository;
  index: SearchIndex;
  countUpTo?: number;
}) {
  /** Brings the index's documents of these profiles in step with the tables (a deleted profile leaves it). */
  const reindex = async (profileIds: readonly number[]) => {
    const unique = [...new Set(profileIds)];
    for (let i = 0; i < unique.length; i += INDEX_BATCH) {
      const ids = unique.slice(i, i + INDEX_BATCH);
      const entries = await repository.directoryEntries(ids);
      if (entries.length > 0) await index.upsert(entries.map(peopleDocumentOf));
      const found = new Set(entries.map((entry) => entry.profileId));
      const gone = ids.filter((id) => !found.has(id));
      if (gone.length > 0) await index.remove(gone.map(String));
    }
  };

  /** What a rebuild reads: every profile's entry a batch at a time, and the current ones of ids written meanwhile. */
  const indexSource: RebuildSource = {
    async eachPage(handle) {
      let after = 0;
      for (;;) {
        const batch = await repository.directoryEntriesAfter(after, INDEX_BATCH);
        if (batch.length === 0) return;
        await handle(batch.map(peopleDocumentOf));
        after = batch[batch.length - 1]?.profileId ?? after;
      }
    },
    documents: async (ids) =>
      (await repository.directoryEntries(ids.map(Number).filter(Number.isSafeInteger))).map(peopleDocumentOf),
  };

  /**
   * Rebuilds the index from the tables whatever it holds (the operator's `reindex`): a new generation, switched to
   * at once, searches answering from the old one meanwhile. `rebuilt: false` when another process is rebuilding it.
   */
  const reindexAll = (): Promise<RebuildOutcome> => index.rebuild(indexSource);

  return {
    async search(caller: Caller | undefined, input: DirectoryQuery) {
      requireMember(caller);
      const query = checkQuery(input);
      const { ids, stored, total, totalIsLowerBound } = await index.search({
        text: query.search,
        filters: indexFilters(query),
        sort: DIRECTORY_ORDER,
        offset: query.offset,
        limit: query.limit,
        countUpTo: Math.min(MAX_RESULT_WINDOW, Math.max(countUpTo, query.offset + query.limit + 1)),
        withStored: true,
      });
      const cards = await STORED_CARD.page(
        ids,
        stored,
        async (missing) =>
          new Map(
            (await repository.directoryCards(missing.map(Number))).map((card) => [
              String(card.profileId),
              card,
            ]),
          ),
      );
      return { cards, total, totalIsLowerBound: totalIsLowerBound === true };
    },

    /**
     * The ids of the first `limit` people the checked filters select, in the directory's order (an export reads
     * their details from the tables); no count.
     */
    async matchingIds(filters: DirectoryFilters, limit: number): Promise<number[]> {
      const { ids } = await index.search({
        text: filters.search,
        filters: indexFilters(filters),
        sort: DIRECTORY_ORDER,
        offset: 0,
        limit,
        countTotal: false,
      });
      return ids.map(Number);
    },

    /** After a write to these profiles, their jobs or their issues. */
    profilesChanged: (profileIds: readonly number[]) => reindex(profileIds),

    /** After the org service renamed (or regrouped) organizations or divisions: everyone working there. */
    async placesRenamed(at: { organizationIds: readonly number[]; divisionIds: readonly number[] }) {
      if (at.organizationIds.length === 0 && at.divisionIds.length === 0) return;
      await reindex(await repository.profileIdsWorkingAt(at));
    },

    /**
     * Brings the index in step when a replica starts: rebuilt into a new generation when it was built for another
     * definition, does not hold as many people as the tables (a seed wrote past it) or stores cards of an older
     * shape (every page would read its cards from the tables, and fail while the database is away), by whichever
     * replica takes the lock (the others serve the live index meanwhile). Answers how many were indexed (0 when it
     * was in step, or when another replica is rebuilding it).
     */
    async rebuildIfOutOfStep(): Promise<number> {
      const result = await syncIndex(index, {
        source: indexSource,
        count: () => repository.countProfiles(),
        stored: STORED_CARD,
      });
      return result.outcome === 'rebuilt' ? result.documents : 0;
    },

    reindexAll,
  };
}

export type PeopleDirectory = ReturnType<typeof createPeopleDirectory>;
