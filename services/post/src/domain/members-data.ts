// A member's data in the post service (ADR 0042): deleted when their account is (the auth service's recorded
// `account.deleted`, read whenever this service gets to it, as often as it is delivered), and exported at their
// request ("Download my data"): their own posts, comments, likes and reports, nobody else's personal data.
import type { RecordedEvent } from '@rotunda/events';
import { type Caller, requireMember } from '@rotunda/service-kit';
import type { FeedVersion } from './feed-version.ts';
import type { MembersDataStore } from './ports.ts';
import type { PostIndex } from './post-index.ts';

/** Instants as ISO 8601 text; dates YYYY-MM-DD, times HH:MM. */
export interface MemberExport {
  reports: {
    report_id: number;
    target_type: string;
    target_id: number;
    reason: string;
    note: string;
    created_at: string;
    closed_at: string | null;
    outcome: string | null;
  }[];
  posts: {
    post_id: number;
    post_title: string;
    post_body: string;
    posttype_id: number;
    eventtype_id: number | null;
    event_location: string | null;
    event_date: string | null;
    event_start: string | null;
    event_end: string | null;
    organization_id: number | null;
    division_id: number | null;
    likes_count: number;
    reads: number;
    created_at: string;
    updated_at: string;
    moderation_state: string;
    moderation_reason: string | null;
    /** Profile ids the post names. */
    mentions: number[];
  }[];
  comments: {
    comment_id: number;
    post_id: number;
    comment_body: string;
    created_at: string;
    updated_at: string;
    moderation_state: string;
    moderation_reason: string | null;
    mentions: number[];
  }[];
  likes: { post_id: number; created_at: string }[];
}

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
