// What the profile service holds about one member, and their rights to it (docs/product.md#your-data,
// ADR 0042): "Download my data" answers everything it holds about the caller; a deleted account's profile
// goes (one they created) or returns to unclaimed without their personal contact details (one they claimed),
// and their claims go; the digests learn every owner's issue areas, streamed to another Rotunda service only.
// Knows nothing of gRPC, HTTP or Prisma: it works through its ports.
import { type Caller, permissionDenied, requireMember, requireService } from '@rotunda/service-kit';
import { MESSAGES } from './access.ts';
import type { PeopleDirectory } from './directory.ts';
import type { MemberDataRepository, MemberExport, MemberIssueAreas } from './ports.ts';

/** Owners read per batch of the issue-area stream: a whole state's members never sit in memory at once. */
export const ISSUE_AREA_BATCH = 1000;

export interface MemberDataDependencies {
  data: MemberDataRepository;
  /** The people directory's index: a removed profile leaves it, one unclaimed again is shown as such. */
  directory: Pick<PeopleDirectory, 'profilesChanged'>;
}

export function createMemberData({ data, directory }: MemberDataDependencies) {
  return {
    /** Everything held about the calling member: their profile with its personal fields, jobs, issue areas, claims. */
    async exportMine(caller: Caller | undefined): Promise<MemberExport> {
      const member = requireMember(caller);
      return data.exportOf(member.userId);
    },

    /**
     * Every owned profile's issue areas in user id order, for another service (the digests): never a member's to
     * read, since it maps every member to what they follow.
     */
    async *memberIssueAreas(
      caller: Caller | undefined,
      service: string | undefined,
    ): AsyncGenerator<MemberIssueAreas> {
      if (caller) throw permissionDenied(MESSAGES.servicesOnly);
      requireService(service);
      let after = '';
      for (;;) {
        const batch = await data.memberIssueAreasAfter(after, ISSUE_AREA_BATCH);
        yield* batch;
        const last = batch[batch.length - 1];
        if (!last || batch.length < ISSUE_AREA_BATCH) return;
        after = last.userId;
      }
    },

    /**
     * The member's account was deleted (`account.deleted`, delivered at least once): their part here goes, and a
     * second delivery finds nothing left to change. The directory follows the profile that went or changed.
     */
    async accountDeleted(userId: string): Promise<void> {
      const changed = await data.forgetMember(userId);
      if (changed.length > 0) await directory.profilesChanged(changed);
    },
  };
}

export type MemberData = ReturnType<typeof createMemberData>;
