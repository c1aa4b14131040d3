// What "Download my data" holds of a member in the post service (ADR 0042): their own posts, comments, likes and
// reports, as the store reads them and members-data.ts hands them over.

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
