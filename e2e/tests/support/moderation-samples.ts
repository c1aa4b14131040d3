// Test helper: a Moderation screen with something in it, for the accessibility checks and the screenshots. The
// queue and the log are answered in the browser (a fresh demo has no reports, and two runs' shots must match):
// an open post reported for personal information with a note, a comment hidden after three members' reports,
// and a log with a decision, an automatic hiding and a running suspension (so its Lift button shows).
import type { Page } from '@playwright/test';

const author = { user_id: 'sample-author', profile_id: 1, first_name: 'Jordan', last_name: 'Reyes' };
const contributor = { user_id: 'sample-contributor', first_name: 'Casey', last_name: 'Concierge' };

export const SAMPLE_OPEN_REPORTS = [
  {
    target_type: 'post',
    target_id: 9001,
    post_id: 9001,
    reports_count: 2,
    reasons: ['personal_information', 'harassment'],
    notes: ['The body lists a staffer’s mobile number.', 'Names a committee aide and where she lives.'],
    automatic: false,
    state: 'visible',
    first_reported_at: '2025-03-04T17:20:00.000Z',
    excerpt: 'Who to call about the water bond hearing',
    author,
  },
  {
    target_type: 'comment',
    target_id: 9002,
    post_id: 9001,
    reports_count: 3,
    reasons: ['spam'],
    notes: [],
    automatic: true,
    state: 'hidden',
    first_reported_at: '2025-03-04T18:05:00.000Z',
    excerpt: 'Grow your followers fast, 10,000 for $5, visit my page now',
    author: { ...author, user_id: 'sample-spammer', profile_id: 2, first_name: 'Sam', last_name: 'Sellers' },
  },
];

export const SAMPLE_LOG = [
  {
    id: 3,
    at: '2025-03-05T16:00:00.000Z',
    actor: contributor,
    action: 'suspend',
    target_type: null,
    target_id: null,
    user_id: 'sample-spammer',
    reason: 'Posting paid-follower spam after a warning.',
  },
  {
    id: 2,
    at: '2025-03-04T18:05:00.000Z',
    actor: { user_id: '', first_name: '', last_name: '' },
    action: 'auto_hide',
    target_type: 'comment',
    target_id: 9002,
    user_id: 'sample-spammer',
    reason: 'Hidden after reports from several members, until a contributor reviews it.',
  },
  {
    id: 1,
    at: '2025-03-03T15:30:00.000Z',
    actor: contributor,
    action: 'hide',
    target_type: 'post',
    target_id: 8990,
    user_id: 'sample-author',
    reason: 'Shares a staffer’s personal phone number.',
  },
];

/** Answers the queue (open and closed) and the log in this page with the samples above. */
export async function answerModerationSamples(page: Page): Promise<void> {
  await page.route(/\/api\/reports\?status=(open|closed)$/, (route) =>
    route.fulfill({
      json: new URL(route.request().url()).searchParams.get('status') === 'open' ? SAMPLE_OPEN_REPORTS : [],
    }),
  );
  await page.route(/\/api\/moderation\/log(\?.*)?$/, (route) => route.fulfill({ json: SAMPLE_LOG }));
}
