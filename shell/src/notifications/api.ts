// The shell's calls for notifications, email preferences, unsubscribing and the member's own data
// (docs/product.md#notifications and #your-data), with the answers read defensively: an item the page cannot
// link or date is left out rather than shown broken.
import {
  EMAIL_DIGESTS,
  EMAIL_NOW_KINDS,
  type EmailDigest,
  NOTIFICATIONS_PAGE,
  type NotificationKind,
  type NotificationPreferences,
} from '@rotunda/rules';
import { call, fetchFile, request, send } from '@rotunda/ui';

export interface NotificationActor {
  profile_id: number;
  first_name: string;
  last_name: string;
}

export interface NotificationTarget {
  type: 'post' | 'comment' | 'profile';
  id: number;
  /** For a comment, the post it is on. */
  post_id?: number;
}

export interface Notification {
  id: number;
  kind: NotificationKind;
  created_at: string;
  read: boolean;
  actor: NotificationActor | null;
  target: NotificationTarget;
  text: string;
}

export interface NotificationPage {
  items: Notification[];
  unread_count: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);

function targetOf(value: unknown): NotificationTarget | null {
  if (!isRecord(value) || !isId(value.id)) return null;
  const { type } = value;
  if (type !== 'post' && type !== 'comment' && type !== 'profile') return null;
  return isId(value.post_id) ? { type, id: value.id, post_id: value.post_id } : { type, id: value.id };
}

function actorOf(value: unknown): NotificationActor | null {
  if (!isRecord(value) || !isId(value.profile_id)) return null;
  const { first_name, last_name } = value;
  if (typeof first_name !== 'string' || typeof last_name !== 'string') return null;
  return { profile_id: value.profile_id, first_name, last_name };
}

function notificationOf(value: unknown): Notification | null {
  if (!isRecord(value) || !isId(value.id)) return null;
  const target = targetOf(value.target);
  const { kind, created_at, text } = value;
  if (!target || typeof kind !== 'string' || typeof text !== 'string') return null;
  if (typeof created_at !== 'string' || Number.isNaN(Date.parse(created_at))) return null;
  return {
    id: value.id,
    kind: kind as NotificationKind,
    created_at,
    read: value.read === true,
    actor: actorOf(value.actor),
    target,
    text,
  };
}

/** The unread count an answer or a stream event carries, or null. */
export function unreadCountOf(value: unknown): number | null {
  const count = isRecord(value) ? value.unread_count : undefined;
  return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : null;
}

export interface PageRequest {
  /** Only notifications older than this one; the newest without it. */
  before?: number;
  limit?: number;
  signal?: AbortSignal;
}

/** One page, newest first. */
export async function fetchNotifications({
  before,
  limit = NOTIFICATIONS_PAGE.default,
  signal,
}: PageRequest = {}): Promise<NotificationPage> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (before !== undefined) query.set('before', String(before));
  const answer = await call<unknown>('GET', `/api/notifications?${query}`, { signal });
  const items = isRecord(answer) && Array.isArray(answer.items) ? answer.items : null;
  const unread = unreadCountOf(answer);
  if (!items || unread === null) throw new Error('GET /api/notifications answered an unexpected shape');
  return {
    items: items.map(notificationOf).filter((item): item is Notification => item !== null),
    unread_count: unread,
  };
}

export async function markRead(ids: number[]): Promise<void> {
  await call('POST', '/api/notifications/read', { body: { ids } });
}

export async function markAllRead(): Promise<void> {
  await call('POST', '/api/notifications/read', { body: { all: true } });
}

/** Where an item leads: its post (a comment's post too) or the profile it is about. */
export function targetPath({ type, id, post_id }: NotificationTarget): string {
  if (type === 'profile') return `/profile/${id}`;
  return `/public-square/post/${type === 'comment' ? (post_id ?? id) : id}`;
}

function preferencesOf(value: unknown): NotificationPreferences {
  const digest = isRecord(value) ? value.email_digest : undefined;
  const now = isRecord(value) && isRecord(value.email_now) ? value.email_now : null;
  if (!EMAIL_DIGESTS.includes(digest as EmailDigest) || !now) {
    throw new Error('The notification preferences answered an unexpected shape');
  }
  return {
    email_digest: digest as EmailDigest,
    email_now: Object.fromEntries(
      EMAIL_NOW_KINDS.map((kind) => [kind, now[kind] === true]),
    ) as NotificationPreferences['email_now'],
  };
}

export async function fetchPreferences(signal?: AbortSignal): Promise<NotificationPreferences> {
  return preferencesOf(await call<unknown>('GET', '/api/notifications/preferences', { signal }));
}

export async function savePreferences(
  preferences: NotificationPreferences,
): Promise<NotificationPreferences> {
  const answer = await call<unknown>('PUT', '/api/notifications/preferences', { body: preferences });
  // A 204 or an answer without the choices: what was sent is what is kept.
  return answer === undefined || !isRecord(answer) || !('email_digest' in answer)
    ? preferences
    : preferencesOf(answer);
}

/** What an unsubscribe link's POST came to. */
export type UnsubscribeResult = 'done' | 'invalid' | 'failed';

/** One-click unsubscribe (no sign-in): turns the digest and every immediate mail off. */
export async function unsubscribe(token: string): Promise<UnsubscribeResult> {
  try {
    const response = await send('POST', `/api/notifications/unsubscribe?${new URLSearchParams({ token })}`);
    if (response.ok) return 'done';
    return response.status >= 400 && response.status < 500 ? 'invalid' : 'failed';
  } catch (error) {
    console.error('Could not unsubscribe', error);
    return 'failed';
  }
}

/** "Download my data": the JSON file and the name the server gave it. */
export function exportMyData(): Promise<{ blob: Blob; fileName: string | null }> {
  return fetchFile('/api/me/export', { accept: 'application/json' });
}

/** Deletes the member's account after checking their password; a wrong one throws the server's refusal. */
export async function deleteAccount(password: string): Promise<void> {
  await request('POST', '/api/me/delete', { body: { password } });
}
