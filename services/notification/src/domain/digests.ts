// The daily and weekly digests: every member whose digest is due (a day, or a week, since their last) and who has
// something to read — unread notifications since then, new posts in their issue areas — gets one mail. A
// member's slot is claimed in the database before their mail goes, so two runs at once (or one run twice) never
// mail anyone twice in a period. Members are taken in batches, so 100,000 of them never sit in memory whole. A run
// told to stop claims nobody more and finishes the mail it is sending: nobody's digest is claimed and left unsent.
import type { Logger } from '@rotunda/service-kit';
import { type DigestContent, digestMail } from './mails.ts';
import type { DigestMember, Mailer, MemberIssueAreas, Members, NotificationStore } from './ports.ts';

const BATCH = 1000;
/** At most this many notifications and posts are listed in one digest; the mail links to the rest. */
const LISTED = 20;
const DAY_MS = 24 * 60 * 60 * 1000;
export const DIGEST_PERIOD_MS = { daily: DAY_MS, weekly: 7 * DAY_MS } as const;
/** Recent posts are kept a little longer than the longest period a digest looks back. */
export const RECENT_POSTS_KEEP_MS = 8 * DAY_MS;
/** Handled-event marks outlive the producers' outboxes (14 days), so no redelivery finds its mark gone. */
export const HANDLED_KEEP_MS = 15 * DAY_MS;

export interface DigestRun {
  sent: number;
  membersConsidered: number;
  /** Told to stop before every member was considered; the rest are due at the next run. */
  stopped: boolean;
}

export interface DigestsOptions {
  store: NotificationStore;
  members: Members;
  mailer: Mailer;
  publicUrl: string;
  logger: Logger;
}

export function createDigests({ store, members, mailer, publicUrl, logger }: DigestsOptions) {
  async function contentOf(member: DigestMember, areas: number[], at: Date): Promise<DigestContent | null> {
    const since = member.lastDigestAt ?? new Date(at.getTime() - DIGEST_PERIOD_MS[member.digest]);
    const unread = await store.unreadSince(member.userId, since, LISTED);
    const posts = areas.length > 0 ? await store.postsSince(areas, since, member.userId, LISTED) : [];
    if (unread.total === 0 && posts.length === 0) return null;
    return { digest: member.digest, notifications: unread.items, unreadTotal: unread.total, posts };
  }

  /** Sends the batch's due digests; answers how many went. */
  async function sendBatch(batch: MemberIssueAreas[], at: Date, signal?: AbortSignal): Promise<number> {
    const areasOf = new Map(batch.map((member) => [member.userId, member.issueAreaIds]));
    await store.ensurePreferences([...areasOf.keys()]);
    const due = await store.dueForDigest([...areasOf.keys()], at);
    const ready: { member: DigestMember; content: DigestContent }[] = [];
    for (const member of due) {
      const content = await contentOf(member, areasOf.get(member.userId) ?? [], at);
      if (content) ready.push({ member, content });
    }
    if (ready.length === 0) return 0;
    const emails = await members.emails(ready.map(({ member }) => member.userId));
    let sent = 0;
    for (const { member, content } of ready) {
      if (signal?.aborted) break;
      const to = emails.get(member.userId);
      if (!to) continue;
      if (!(await store.claimDigest(member.userId, member.lastDigestAt, at))) continue;
      try {
        await mailer.send({
          to,
          ...digestMail(content, { publicUrl, unsubscribeToken: member.unsubscribeToken }),
        });
        sent += 1;
      } catch (error) {
        // Given back, so the next run tries this member again.
        await store.releaseDigest(member.userId, at, member.lastDigestAt);
        logger.error({ err: error, userId: member.userId }, 'digest mail failed');
      }
    }
    return sent;
  }

  return {
    /** Sends the digests due at `at`; once `signal` is aborted, claims no further member's. */
    async send(at: Date, signal?: AbortSignal): Promise<DigestRun> {
      await store.prune(
        new Date(at.getTime() - RECENT_POSTS_KEEP_MS),
        new Date(at.getTime() - HANDLED_KEEP_MS),
      );
      const run: DigestRun = { sent: 0, membersConsidered: 0, stopped: false };
      const seen = new Set<string>();
      let batch: MemberIssueAreas[] = [];
      const flush = async () => {
        run.membersConsidered += batch.length;
        run.sent += await sendBatch(batch, at, signal);
        batch = [];
      };
      // Read whole before any mail is sent: a stream held open while thousands of mails go out (minutes) is dropped
      // by the connection or a profile replica's restart; the list is a few megabytes for 100,000 members.
      const owners: MemberIssueAreas[] = [];
      for await (const member of members.issueAreas()) {
        if (signal?.aborted) break;
        owners.push(member);
      }
      for (const member of owners) {
        if (signal?.aborted) break;
        seen.add(member.userId);
        batch.push(member);
        if (batch.length >= BATCH) await flush();
      }
      // Members without a profile of their own still hear about their unread notifications.
      let after = '';
      while (!signal?.aborted) {
        const userIds = await store.membersWithUnread(after, BATCH);
        if (userIds.length === 0) break;
        after = userIds[userIds.length - 1] as string;
        for (const userId of userIds) if (!seen.has(userId)) batch.push({ userId, issueAreaIds: [] });
        if (batch.length >= BATCH) await flush();
      }
      if (batch.length > 0 && !signal?.aborted) await flush();
      run.stopped = signal?.aborted ?? false;
      logger.info(run, 'digests sent');
      return run;
    },
  };
}

export type Digests = ReturnType<typeof createDigests>;
