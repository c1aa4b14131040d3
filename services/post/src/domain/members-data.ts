// A member's data in the post service (ADR 0042): deleted when their account is (the auth service's recorded
// `account.deleted`, read whenever this service gets to it, as often as it is delivered), and exported at their
// request ("Download my data"): their own posts, comments, likes and reports, nobody else's personal data.
import type { RecordedEvent } from '@rotunda/events';
import { type Caller, requireMember } from '@rotunda/service-kit';
import type { FeedVersion } from './feed-version.ts';
import type { MembersDataStore } from './ports.ts';
import type { PostIndex } from './post-index.ts';

export interface MembersDataDependencies {
  store: MembersDataStore;
  postIndex: Pick<PostIndex, 'postsChanged' | 'postRemoved'>;
  feedVersion: Pick<FeedVersion, 'changed'>;
}

export function createMembersData({ store, postIndex, feedVersion }: MembersDataDependencies) {
  return {
    /**
     * A recorded event from the services this one reads (ADR 0042): an account's deletion removes everything of
     * the member here, then their posts leave the search index and the likes they took back are counted again, and
     * the feed version moves so that kept pages drop them. Delivered at least once: a repeat deletes nothing more.
     */
    async onEvent(event: RecordedEvent): Promise<void> {
      if (event.topic !== 'account.deleted') return;
      const { deletedPostIds, changedPostIds } = await store.deleteMemberData(event.user_id);
      for (const postId of deletedPostIds) await postIndex.postRemoved(postId);
      await postIndex.postsChanged(changedPostIds);
      await feedVersion.changed();
    },

    /** The caller's own posts, comments, likes and reports, as one JSON text. */
    async exportMine(caller: Caller | undefined): Promise<string> {
      const member = requireMember(caller);
      return JSON.stringify(await store.exportMemberData(member.userId));
    },
  };
}

export type MembersData = ReturnType<typeof createMembersData>;
