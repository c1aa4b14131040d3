// What owning services record in their outbox for others to act on (ADR 0042): durable, ordered, delivered at
// least once to every consumer, unlike the change announcements (changes.ts), which only refresh read copies.
// A payload names the people it concerns by user id, resolved by the producer, so a consumer never calls back.

/** Someone who acted: their user id (for deletion) and the names shown at the time. */
export interface EventActor {
  user_id: string;
  profile_id: number | null;
  first_name: string;
  last_name: string;
}

/** auth: an account was deleted; every service removes what it holds about the member. */
export interface AccountDeleted {
  topic: 'account.deleted';
  user_id: string;
}

/** post: a comment was added to a post (recipient: the post's author, when not the commenter). */
export interface PostCommented {
  topic: 'post.commented';
  post_id: number;
  post_title: string;
  comment_id: number;
  recipient_user_id: string;
  actor: EventActor;
}

/** post: a member liked a post (recipient: its author, when not the liker). Unlikes are not events. */
export interface PostLiked {
  topic: 'post.liked';
  post_id: number;
  post_title: string;
  recipient_user_id: string;
  actor: EventActor;
}

/** post: a post or comment names a member who owns their profile (one event per person, never the author). */
export interface MemberMentioned {
  topic: 'member.mentioned';
  post_id: number;
  post_title: string;
  /** The comment that mentions them; null when the post itself does. */
  comment_id: number | null;
  recipient_user_id: string;
  recipient_profile_id: number;
  actor: EventActor;
}

/** post: a contributor's decision (or the automatic hide) about a member's post or comment. */
export interface ContentModerated {
  topic: 'content.moderated';
  recipient_user_id: string;
  target_type: 'post' | 'comment';
  target_id: number;
  post_id: number;
  post_title: string;
  action: 'hide' | 'restore' | 'remove';
  reason: string;
  automatic: boolean;
}

/** post: a report the member made was decided (one event per reporter). */
export interface ReportDecided {
  topic: 'report.decided';
  recipient_user_id: string;
  target_type: 'post' | 'comment';
  target_id: number;
  post_id: number;
  action: 'dismiss' | 'hide' | 'restore' | 'remove';
}

/** post: a post was published; digests list new posts in a member's issue areas. */
export interface PostPublished {
  topic: 'post.published';
  post_id: number;
  title: string;
  issue_area_ids: number[];
  author_user_id: string;
  created_at: string;
}

/** profile: a contributor confirmed or rejected the member's claim of a profile. */
export interface ClaimDecided {
  topic: 'claim.decided';
  recipient_user_id: string;
  profile_id: number;
  first_name: string;
  last_name: string;
  decision: 'confirmed' | 'rejected';
}

export type DomainEvent =
  | AccountDeleted
  | PostCommented
  | PostLiked
  | MemberMentioned
  | ContentModerated
  | ReportDecided
  | PostPublished
  | ClaimDecided;

export type EventTopic = DomainEvent['topic'];

/** An event as a consumer receives it: its place in the producer's outbox, and when it was recorded. */
export type RecordedEvent = DomainEvent & { event_id: string; recorded_at: string };
