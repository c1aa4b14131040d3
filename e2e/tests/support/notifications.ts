// Test helper for notifications and members' data (ADR 0042): names the "@" completion can find (letters
// only), posts and comments through the API, a member's notifications and email choices as the API answers them,
// the headers of a mail in MailDev, the product's processes (DATA_DIR/pids.json, to stop one) and the digest job
// (`npm run admin -- send-digests` with that start's environment), and sample notifications for the screens'
// accessibility checks and screenshots.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import type { ApiSession } from './api-session.ts';
import { MAILDEV_URL, type Mail } from './mail.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Where the product under test keeps its data: E2E_DATA_DIR, else the DATA_DIR `npm start` defaults to. */
export const DATA_DIR = resolve(REPO_ROOT, process.env.E2E_DATA_DIR ?? '.data');

/** A surname of letters only, unique to a run: the "@" completion reads letters, never digits. */
export function uniqueSurname(stem: string): string {
  const letters = [...randomBytes(6)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('');
  return `${stem}${letters}`;
}

export async function json<T>(
  response: Awaited<ReturnType<APIRequestContext['get']>>,
  status = 200,
): Promise<T> {
  expect(response.status(), `${response.url()}: ${await response.text()}`).toBe(status);
  return (await response.json()) as T;
}

/** The first post type that is not an event (an event needs dates). */
export async function plainPostType(request: APIRequestContext): Promise<number> {
  const types = await json<{ posttype_id: number; post_type: string }[]>(
    await request.get('/api/posts/post-types'),
  );
  return types.find((type) => type.post_type !== 'EVENT')?.posttype_id ?? 1;
}

export async function addPost(
  request: APIRequestContext,
  as: ApiSession,
  title: string,
  postType: number,
  mentions: number[] = [],
): Promise<number> {
  const post = await json<{ post_id: number }>(
    await request.post('/api/posts/add-post', {
      headers: await as.headers(),
      data: { post_title: title, post_body: `<p>${title}</p>`, post_type: postType, mentions },
    }),
    201,
  );
  return post.post_id;
}

export async function addComment(
  request: APIRequestContext,
  as: ApiSession,
  postId: number,
  body: string,
  mentions: number[] = [],
): Promise<number> {
  const answer = await request.post('/api/posts/add-comment', {
    headers: await as.headers(),
    data: { post_id: postId, comment_body: body, mentions },
  });
  expect(answer.status(), `add-comment: ${await answer.text()}`).toBeLessThan(300);
  return ((await answer.json()) as { comment_id: number }).comment_id;
}

export async function like(request: APIRequestContext, as: ApiSession, postId: number): Promise<void> {
  await json(
    await request.post('/api/posts/add-like', {
      headers: await as.headers(),
      data: { post_id: postId, liked: true },
    }),
  );
}

export interface ApiNotification {
  id: number;
  kind: 'comment' | 'like' | 'mention' | 'claim' | 'moderation';
  created_at: string;
  read: boolean;
  actor: { profile_id: number; first_name: string; last_name: string } | null;
  target: { type: string; id: number };
  text: string;
}

export async function notificationsOf(
  request: APIRequestContext,
  as: ApiSession,
): Promise<{ items: ApiNotification[]; unread_count: number }> {
  return json(await request.get('/api/notifications', { headers: await as.headers() }));
}

export interface Preferences {
  email_digest: 'off' | 'daily' | 'weekly';
  email_now: { mention: boolean; claim: boolean; moderation: boolean };
}

export const ALL_OFF: Preferences = {
  email_digest: 'off',
  email_now: { mention: false, claim: false, moderation: false },
};

export async function preferencesOf(request: APIRequestContext, as: ApiSession): Promise<Preferences> {
  return json(await request.get('/api/notifications/preferences', { headers: await as.headers() }));
}

export async function setPreferences(
  request: APIRequestContext,
  as: ApiSession,
  preferences: Preferences,
): Promise<void> {
  const answer = await request.put('/api/notifications/preferences', {
    headers: await as.headers(),
    data: preferences,
  });
  expect(answer.status(), `preferences: ${await answer.text()}`).toBeLessThan(300);
}

/**
 * A mail's headers as sent (names in lower case), read from its source: MailDev's parsed `headers` leave out the
 * List-Unsubscribe pair.
 */
export async function headersOf(request: APIRequestContext, mail: Mail): Promise<Record<string, string>> {
  const response = await request.get(`${MAILDEV_URL}/api/email/${mail.id}/source`);
  expect(response.ok()).toBe(true);
  const source = await response.text();
  const head = source.slice(0, source.search(/\r?\n\r?\n/));
  // A folded header continues on lines that begin with white space.
  const lines = head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/);
  return Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
}

/** The URL in a `List-Unsubscribe: <URL>` header. */
export function unsubscribeUrl(headers: Record<string, string>): string {
  const match = /<(https?:\/\/[^>]+)>/.exec(headers['list-unsubscribe'] ?? '');
  expect(match, `a List-Unsubscribe URL in ${JSON.stringify(headers)}`).toBeTruthy();
  return match?.[1] ?? '';
}

/** The pids of a service's processes now (every replica), from DATA_DIR/pids.json. */
export function pidsOf(service: string): number[] {
  const running = JSON.parse(readFileSync(resolve(DATA_DIR, 'pids.json'), 'utf8')) as Record<
    string,
    { pid?: number; service: string }
  >;
  return Object.values(running)
    .filter((entry) => entry.service === service && typeof entry.pid === 'number')
    .map((entry) => entry.pid as number);
}

/** Runs `npm run admin -- send-digests` against the product under test; answers its output. */
export function sendDigests(): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn('npm', ['run', '--silent', 'admin', '--', 'send-digests'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0 ? done(output) : fail(new Error(`send-digests exited ${code}: ${output}`)),
    );
  });
}

/** Notifications of each kind, some read, for screens whose looks must not depend on the database. */
export const SAMPLE_NOTIFICATIONS = (() => {
  const dana = { profile_id: 1, first_name: 'Dana', last_name: 'Lee' };
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const post = { type: 'post', id: 9001 };
  const items = [
    { id: 6, kind: 'comment', read: false, actor: dana, target: post, created_at: at(3) },
    { id: 5, kind: 'mention', read: false, actor: dana, target: post, created_at: at(9) },
    { id: 4, kind: 'like', read: false, actor: dana, target: post, created_at: at(45) },
    { id: 3, kind: 'moderation', read: true, actor: null, target: post, created_at: at(60 * 5) },
    {
      id: 2,
      kind: 'claim',
      read: true,
      actor: null,
      target: { type: 'profile', id: 2 },
      created_at: at(60 * 30),
    },
  ];
  const texts: Record<string, string> = {
    comment: 'Dana Lee commented on your post “Water bond hearing moved to Thursday”',
    mention: 'Dana Lee mentioned you in a comment on “Budget subcommittee 3 agenda”',
    like: 'Dana Lee and 2 others liked your post “Water bond hearing moved to Thursday”',
    moderation:
      'Your post “Call my desk” was hidden by a contributor. Reason: Shares a staffer’s personal phone number',
    claim: 'Your claim of the profile of Jordan Reyes was confirmed',
  };
  return { items: items.map((item) => ({ ...item, text: texts[item.kind] })), unread_count: 3 };
})();

/** Answers this page's notifications list and its live count with the samples above. */
export async function answerNotificationSamples(page: Page): Promise<void> {
  await page.route(/\/api\/notifications(\?.*)?$/, (route) => route.fulfill({ json: SAMPLE_NOTIFICATIONS }));
  await page.route(/\/api\/notifications\/stream$/, (route) =>
    route.fulfill({
      contentType: 'text/event-stream',
      body: `data: ${JSON.stringify({ unread_count: SAMPLE_NOTIFICATIONS.unread_count })}\n\n`,
    }),
  );
}
