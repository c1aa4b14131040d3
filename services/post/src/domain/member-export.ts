// What "Download my data" holds of a member in the post service (ADR 0042): their own posts, comments, likes and
// reports, as the store reads them and members-data.ts hands them over.
import type { CommentFieldName, PostFieldAnswers } from '@rotunda/rules';

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
  /** With the written fields of @rotunda/rules' POST_FIELDS. */
  posts: (PostFieldAnswers & {
    post_id: number;
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
  })[];
  /** With the written fields of COMMENT_FIELDS. */
  comments: (Record<CommentFieldName, string> & {
    comment_id: number;
    post_id: number;
    created_at: string;
    updated_at: string;
    moderation_state: string;
    moderation_reason: string | null;
    mentions: number[];
  })[];
  likes: { post_id: number; created_at: string }[];
}
