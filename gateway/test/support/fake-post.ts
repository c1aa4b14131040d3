// A recording fake PostService (service-kit's) for the gateway's /api/posts and moderation tests: canned posts,
// comments, types, likes, reports and the log. The feed version it answers is the test's to move (or to make
// fail); the gateways' questions for it are counted, not recorded with the calls; so is the moderation snapshot,
// which the test sets (a suspension, a hidden author) and the gateways poll.
import {
  type Comment,
  type ModerationLogEntry,
  type ModerationSnapshot,
  type MyReport,
  type Post,
  PostServiceService,
  type ReportedTarget,
} from '@rotunda/protos/post';
import { type FakeAnswer, type RecordingFake, startRecordingFake } from '@rotunda/service-kit/testing';

export const COMMENT: Comment = {
  comment_id: 31,
  post_id: 7,
  comment_author: 102,
  comment_body: 'Will there be a recording?',
  user_id: 'concierge-1',
  created_at: new Date('2026-11-20T17:00:00.000Z'),
  updated_at: new Date('2026-11-20T18:00:00.000Z'),
  author: { profile_id: 102, first_name: 'Carlos', last_name: 'Whitaker', user_id: 'concierge-1' },
  mentions: [],
};

/** A person a post names (its body links to their profile). */
export const MENTION = { profile_id: 205, first_name: 'Dana', last_name: 'Lee' };

export const EVENT_POST: Post = {
  post_id: 7,
  post_title: 'Hearing on rural broadband',
  post_body: '<p>Public comment at the end.</p>',
  post_author: 101,
  user_id: '4b1f2a52-7c1e-4d8a-9a43-1d2f6b1f0a01',
  organization_id: 12,
  division_id: 3,
  organization_name: 'Capitol Bridge Advocates',
  division_name: 'Government Affairs',
  posttype_id: 9,
  post_type: 'EVENT',
  eventtype_id: 1,
  event_type: 'HEARING',
  event_location: 'Capitol Annex, Room 1200',
  event_date: '2026-12-08',
  event_start: '09:30',
  event_end: '12:00',
  created_at: new Date('2026-11-20T16:00:00.000Z'),
  updated_at: new Date('2026-11-20T16:00:00.000Z'),
  likes_count: 4,
  reads: 17,
  comments_count: 1,
  author: {
    profile_id: 101,
    first_name: 'Maya',
    last_name: 'Delgado',
    user_id: '4b1f2a52-7c1e-4d8a-9a43-1d2f6b1f0a01',
  },
  comments: [COMMENT],
  mentions: [MENTION],
};

/** A post that is not an event, by an author without a division. */
export const PLAIN_POST: Post = {
  post_id: 8,
  post_title: 'Water plan adopted',
  post_body: '<p>The board adopted the plan.</p>',
  post_author: 102,
  user_id: 'concierge-1',
  organization_id: 14,
  organization_name: 'Delta Water Authority',
  posttype_id: 2,
  post_type: 'PRESS RELEASE',
  created_at: new Date('2026-11-21T09:00:00.000Z'),
  updated_at: new Date('2026-11-21T09:00:00.000Z'),
  likes_count: 0,
  reads: 0,
  comments_count: 0,
  author: { profile_id: 102, first_name: 'Carlos', last_name: 'Whitaker', user_id: 'concierge-1' },
  comments: [],
  mentions: [],
};

/** A reported comment, as ListReports answers it: hidden at once by three members' reports. */
export const REPORTED_COMMENT: ReportedTarget = {
  target_type: 'comment',
  target_id: 31,
  reports_count: 3,
  reasons: ['harassment', 'spam'],
  state: 'hidden',
  first_reported_at: new Date('2026-11-22T10:00:00.000Z'),
  excerpt: 'Will there be a recording?',
  author: { user_id: 'concierge-1', profile_id: 102, first_name: 'Carlos', last_name: 'Whitaker' },
  notes: ['Third time this week'],
  automatic: true,
  post_id: 7,
};

/** A member's own reports, newest first: one still open, one a contributor closed by hiding the post. */
export const MY_REPORTS: MyReport[] = [
  {
    report_id: 42,
    target_type: 'comment',
    target_id: 31,
    post_id: 7,
    reason: 'harassment',
    note: '',
    created_at: new Date('2026-11-23T10:00:00.000Z'),
    status: 'open',
    outcome: '',
    excerpt: 'Will there be a recording?',
  },
  {
    report_id: 41,
    target_type: 'post',
    target_id: 7,
    post_id: 7,
    reason: 'personal_information',
    note: 'A staffer’s phone',
    created_at: new Date('2026-11-22T10:00:00.000Z'),
    status: 'closed',
    outcome: 'hide',
    decided_at: new Date('2026-11-23T08:00:00.000Z'),
    excerpt: 'Budget hearing moved',
  },
];

/** The moderation log, newest first: a suspension (no target) after a decision on a post. */
export const MODERATION_LOG: ModerationLogEntry[] = [
  {
    id: 12,
    at: new Date('2026-11-23T09:00:00.000Z'),
    actor_user_id: 'concierge-1',
    actor_first_name: 'Carlos',
    actor_last_name: 'Whitaker',
    action: 'suspend',
    target_type: '',
    target_id: 0,
    user_id: '4b1f2a52-7c1e-4d8a-9a43-1d2f6b1f0a01',
    reason: 'Repeated harassment',
  },
  {
    id: 11,
    at: new Date('2026-11-23T08:00:00.000Z'),
    actor_user_id: 'concierge-1',
    actor_first_name: 'Carlos',
    actor_last_name: 'Whitaker',
    action: 'hide',
    target_type: 'post',
    target_id: 7,
    user_id: '4b1f2a52-7c1e-4d8a-9a43-1d2f6b1f0a01',
    reason: 'Personal phone number',
  },
];

export const POST_TYPES = [
  { posttype_id: 1, post_type: 'ANNOUNCEMENT' },
  { posttype_id: 9, post_type: 'EVENT' },
];
export const EVENT_TYPES = [
  { eventtype_id: 1, event_type: 'HEARING' },
  { eventtype_id: 10, event_type: 'OTHER' },
];

export interface FakePost extends RecordingFake {
  /** What GetFeedVersion answers (it fails while `failing`), and how often it was asked. */
  feedVersion: { value: number; failing: boolean; asked: number };
  /** What GetModerationSnapshot answers; `reset` empties it. */
  moderation: ModerationSnapshot;
  reset: () => void;
}

export async function startFakePost(): Promise<FakePost> {
  const feedVersion = { value: 1, failing: false, asked: 0 };
  const moderation: ModerationSnapshot = { suspensions: [], hidden_authors: [] };
  const defaults: Record<string, FakeAnswer> = {
    getFeedVersion: async () => {
      feedVersion.asked++;
      if (feedVersion.failing) throw new Error('the feed version cannot be read');
      return { version: feedVersion.value };
    },
    getModerationSnapshot: async () => moderation,
    exportMine: async () => ({
      json: JSON.stringify({
        reports: [{ report_id: 41 }],
        posts: [{ post_id: 7 }],
        comments: [],
        likes: [],
      }),
    }),
    listPosts: async () => ({ posts: [PLAIN_POST, EVENT_POST] }),
    listPostTypes: async () => ({ post_types: POST_TYPES }),
    listEventTypes: async () => ({ event_types: EVENT_TYPES }),
    getPostType: async () => POST_TYPES[1] as object,
    getEventType: async () => EVENT_TYPES[0] as object,
    addPost: async () => EVENT_POST,
    updatePost: async () => EVENT_POST,
    deletePost: async () => ({}),
    listComments: async () => ({ comments: [COMMENT], has_earlier: true }),
    addComment: async () => COMMENT,
    updateComment: async () => COMMENT,
    deleteComment: async () => ({}),
    setLike: async (request, context) => ({
      post_id: request.post_id,
      liked: request.liked,
      user_id: context.caller?.userId ?? '',
      likes_count: 5,
    }),
    listMyLikes: async () => ({ post_ids: [8, 7] }),
    addRead: async (request) => ({ post_id: request.post_id, reads: 18 }),
    getProfileInfo: async () => ({
      profile_id: 102,
      first_name: 'Carlos',
      last_name: 'Whitaker',
      user_id: 'concierge-1',
      organization_id: 14,
    }),
    addReport: async () => ({ report_id: 41 }),
    listReports: async () => ({ targets: [REPORTED_COMMENT] }),
    listMyReports: async () => ({ reports: MY_REPORTS }),
    decideReports: async () => ({ state: 'hidden', closed_reports: 3 }),
    suspendMember: async (request, context) => ({
      user_id: request.user_id,
      until: new Date('2026-12-24T08:00:00.000Z'),
      reason: request.reason,
      created_at: new Date('2026-11-24T08:00:00.000Z'),
      suspended_by: context.caller?.userId ?? '',
    }),
    liftSuspension: async () => ({}),
    listModerationLog: async () => ({ entries: MODERATION_LOG }),
  };
  const recording = await startRecordingFake({
    definition: PostServiceService,
    defaults,
    unrecorded: ['getFeedVersion', 'getModerationSnapshot'],
  });
  return {
    ...recording,
    feedVersion,
    moderation,
    reset: () => {
      recording.reset();
      feedVersion.failing = false;
      moderation.suspensions.length = 0;
      moderation.hidden_authors.length = 0;
    },
  };
}
