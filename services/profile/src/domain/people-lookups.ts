// What other screens and services look up about people (docs/product.md#2-screens-and-routes,
// #9-business-constants-and-limits): everyone working at an organization or a division now, shuffled, for the
// People tabs and the profile page; and the internal author lookups, a post's author by member or by profile,
// the owners the feed pages through, and the names a history shows for its actors. Knows nothing of gRPC,
// HTTP or Prisma: it works through its ports.
import { type Caller, invalidArgument, notFound, requireMember } from '@rotunda/service-kit';
import { MESSAGES, validId } from './access.ts';
import type { Author, Colleague } from './model.ts';
import type { ProfileRepository } from './ports.ts';

/** How many authors one lookup answers at most (posts ask for a page's authors at once). */
export const AUTHORS_LIMIT = 1000;
const DEFAULT_AUTHORS_PAGE = 100;

export interface PeopleLookupsDependencies {
  profiles: Pick<
    ProfileRepository,
    'colleagues' | 'authorByUser' | 'authorsByIds' | 'listAuthors' | 'authorsByUsers'
  >;
  /** A number in [0, 1): colleague lists are shuffled with it. */
  random?: () => number;
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [result[i], result[j]] = [result[j] as T, result[i] as T];
  }
  return result;
}

function requireAtMostAuthors(count: number) {
  if (count > AUTHORS_LIMIT) throw invalidArgument(`Ask for at most ${AUTHORS_LIMIT} authors at a time.`);
}

export function createPeopleLookups({ profiles, random = Math.random }: PeopleLookupsDependencies) {
  return {
    /**
     * Everyone working there now, shuffled. Nobody is left out here: the profile page leaves out the profile on
     * screen, the organization's People tab the member's own (docs/product.md#2-screens-and-routes,
     * #9-business-constants-and-limits).
     */
    async organizationColleagues(caller: Caller | undefined, organizationId: number): Promise<Colleague[]> {
      requireMember(caller);
      if (!validId(organizationId)) return [];
      return shuffled(await profiles.colleagues({ organizationId }), random);
    },

    async divisionColleagues(caller: Caller | undefined, divisionId: number): Promise<Colleague[]> {
      requireMember(caller);
      if (!validId(divisionId)) return [];
      return shuffled(await profiles.colleagues({ divisionId }), random);
    },

    /** Internal: the member's profile as a post's author. */
    async authorByUser(userId: string): Promise<Author> {
      const author = userId ? await profiles.authorByUser(userId) : null;
      if (!author) throw notFound(MESSAGES.profileNotFound);
      return author;
    },

    async authors(profileIds: readonly number[]): Promise<Author[]> {
      requireAtMostAuthors(profileIds.length);
      const ids = [...new Set(profileIds.filter(validId))];
      return ids.length === 0 ? [] : profiles.authorsByIds(ids);
    },

    async listAuthors(afterProfileId: number, limit: number): Promise<Author[]> {
      const page = limit > 0 ? Math.min(Math.floor(limit), AUTHORS_LIMIT) : DEFAULT_AUTHORS_PAGE;
      return profiles.listAuthors(Math.max(0, Math.floor(afterProfileId)), page);
    },

    /** Internal: the profiles these members own (the names a history shows for its actors). */
    async authorsByUsers(userIds: readonly string[]): Promise<Author[]> {
      requireAtMostAuthors(userIds.length);
      const ids = [...new Set(userIds.filter((id) => id !== ''))];
      return ids.length === 0 ? [] : profiles.authorsByUsers(ids);
    },
  };
}

export type PeopleLookups = ReturnType<typeof createPeopleLookups>;
