// The read copies of other services' names (ADR 0012): authors' names and issue areas, organizations' and
// divisions' names, kept current by the owners' announcements and a catch-up on every (re)connection of the change
// listener, each author's posts re-indexed when their names or issue areas change (a member's "My issue areas"
// filters on them). Also the caller's profile as an author, asked of the profile service, and the people a post or
// comment mentions, copied when the copy does not hold them yet.
import type { Change } from '@rotunda/events';
import { type Caller, DomainError, notFound, requireMember } from '@rotunda/service-kit';
import { MESSAGES } from './access.ts';
import type { FeedVersion } from './feed-version.ts';
import type { CopyStore, OrgDirectory, ProfileDirectory } from './ports.ts';
import type { Author, AuthorCopy, AuthorName } from './post.ts';
import type { PostIndex } from './post-index.ts';

/** Authors asked of the profile service per call (its limit). */
const AUTHORS_PER_CALL = 1000;

/** The author as the read copy keeps them. */
const authorCopyOf = (author: Author): AuthorCopy => ({
  profileId: author.profileId,
  userId: author.userId || null,
  firstName: author.firstName,
  lastName: author.lastName,
  issueAreaIds: author.issueAreaIds,
});

export interface ReadCopiesDependencies {
  copies: CopyStore;
  profiles: ProfileDirectory;
  orgs: OrgDirectory;
  postIndex: Pick<PostIndex, 'authorsChanged'>;
  feedVersion: Pick<FeedVersion, 'changed'>;
}

export function createReadCopies({ copies, profiles, orgs, postIndex, feedVersion }: ReadCopiesDependencies) {
  return {
    /**
     * The caller's profile as an author, kept in the read copy for the byline (their posts re-indexed when the copy
     * was behind); `missing` when there is none.
     */
    async authorOf(caller: Caller, missing: string): Promise<Author> {
      const author = await profiles.authorOfMember(caller.userId);
      if (!author) throw new DomainError('failed_precondition', missing);
      if (await copies.saveAuthor(authorCopyOf(author))) await postIndex.authorsChanged([author.profileId]);
      return author;
    },

    /**
     * The profiles of these ids, in this order, as the read copy holds them; those it does not hold yet are asked of
     * the profile service and copied (so renames reach them), those it does not know are left out.
     */
    async mentioned(profileIds: readonly number[]): Promise<AuthorName[]> {
      if (profileIds.length === 0) return [];
      const held = await copies.authorsByIds(profileIds);
      const missing = profileIds.filter((id) => !held.some((author) => author.profileId === id));
      if (missing.length > 0) {
        const found = await profiles.authors(missing);
        for (const author of found) await copies.saveAuthor(authorCopyOf(author));
        held.push(...found.map(authorCopyOf));
      }
      return profileIds.flatMap((id) => held.find((author) => author.profileId === id) ?? []);
    },

    /**
     * The member's profile names as an event shows them (a like needs no profile: none then). A profile service
     * that does not answer costs the names only, not the like.
     */
    async nameOfMember(userId: string): Promise<Author | null> {
      return profiles.authorOfMember(userId).catch(() => null);
    },

    /**
     * The caller's profile as an author (docs/product.md#7-the-calls-it-makes profile-info); NOT_FOUND when
     * they have none.
     */
    async profileInfo(caller: Caller | undefined): Promise<Author> {
      const member = requireMember(caller);
      const author = await profiles.authorOfMember(member.userId);
      if (!author) throw notFound(MESSAGES.profileNotFound);
      return author;
    },

    /**
     * One announcement from another service's write (ADR 0012): the copy takes it, the index follows names and
     * issue areas.
     */
    async applyChange(change: Change): Promise<void> {
      if (change.kind === 'organization') {
        await copies.saveOrganizations([
          { organizationId: change.organization_id, organizationName: change.organization_name },
        ]);
      } else if (change.kind === 'division') {
        await copies.saveDivisions([
          {
            divisionId: change.division_id,
            divisionName: change.division_name,
            organizationId: change.organization_id,
          },
        ]);
      } else {
        const changed = await copies.updateKnownAuthors([
          {
            profileId: change.profile_id,
            userId: change.user_id,
            firstName: change.first_name,
            lastName: change.last_name,
            ...(change.issue_area_ids ? { issueAreaIds: change.issue_area_ids } : {}),
          },
        ]);
        await postIndex.authorsChanged(changed);
      }
      await feedVersion.changed();
    },

    /**
     * Copies the owners' current names and authors' issue areas (on every (re)connection of the change listener,
     * before the changes heard on it): every organization and division, and the authors this schema references.
     */
    async catchUp(): Promise<void> {
      const names = await orgs.exportNames();
      await copies.saveOrganizations(names.organizations);
      await copies.saveDivisions(names.divisions);
      const ids = await copies.authorIds();
      for (let start = 0; start < ids.length; start += AUTHORS_PER_CALL) {
        const authors = await profiles.authors(ids.slice(start, start + AUTHORS_PER_CALL));
        await postIndex.authorsChanged(await copies.updateKnownAuthors(authors.map(authorCopyOf)));
      }
      await feedVersion.changed();
    },
  };
}

export type ReadCopies = ReturnType<typeof createReadCopies>;
