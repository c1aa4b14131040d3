// The notification store in the notification schema, through Prisma's SQL: each event's change, its handled mark
// and the announcement of the member's new unread count (pg_notify on rotunda_unread) in one transaction; likes
// grouped under the group's row lock; digest slots claimed by a conditional update, so two runs at once never
// both win one member's slot.
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationKind,
  type NotificationPreferences,
} from '@rotunda/rules';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { Details, Notification } from '../domain/notification.ts';
import type { DigestMember, NotificationStore, RecentPost } from '../domain/ports.ts';

/** The channel each change of a member's unread count is announced on, with their user id. */
export const UNREAD_CHANNEL = 'rotunda_unread';

type Tx = Prisma.TransactionClient;

interface Row {
  id: bigint;
  user_id: string;
  kind: string;
  latest_at: Date;
  read: boolean;
  actor_user_id: string | null;
  actor_profile_id: bigint | null;
  actor_first_name: string;
  actor_last_name: string;
  target_type: string;
  target_id: bigint;
  target_post_id: bigint | null;
  post_title: string;
  details: Details;
  likers: number;
}

interface PreferenceRow {
  email_digest: string;
  email_now_mention: boolean;
  email_now_claim: boolean;
  email_now_moderation: boolean;
}

const numberOrNull = (value: bigint | null) => (value === null ? null : Number(value));

function notificationOf(row: Row): Notification {
  const details: Details =
    row.details.kind === 'like' ? { kind: 'like', others: Math.max(0, row.likers - 1) } : row.details;
  return {
    id: Number(row.id),
    userId: row.user_id,
    kind: row.kind as NotificationKind,
    // A group of likes shows when it last grew: that is also where it sits in the list.
    createdAt: row.latest_at,
    read: row.read,
    actor:
      row.actor_user_id === null
        ? null
        : {
            userId: row.actor_user_id,
            profileId: numberOrNull(row.actor_profile_id),
            firstName: row.actor_first_name,
            lastName: row.actor_last_name,
          },
    target: {
      type: row.target_type as Notification['target']['type'],
      id: Number(row.target_id),
      postId: numberOrNull(row.target_post_id),
    },
    postTitle: row.post_title,
    details,
  };
}

const preferencesOf = (row: PreferenceRow | undefined): NotificationPreferences =>
  row
    ? {
        email_digest: row.email_digest as NotificationPreferences['email_digest'],
        email_now: {
          mention: row.email_now_mention,
          claim: row.email_now_claim,
          moderation: row.email_now_moderation,
        },
      }
    : structuredClone(DEFAULT_NOTIFICATION_PREFERENCES);

/** 244 random bits from PostgreSQL's strong random source: an unsubscribe token nobody can derive or guess. */
const NEW_TOKEN = Prisma.sql`replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')`;

/** Digests are due a little before a full period, so a schedule that runs a few minutes early is not skipped. */
const DUE_SLACK = Prisma.sql`interval '1 hour'`;

export function prismaNotificationStore(prisma: PrismaClient, schema: string): NotificationStore {
  const table = (name: string) => Prisma.raw(`"${schema}"."${name}"`);
  const notifications = table('notifications');
  const likers = table('notification_likers');
  const preferences = table('preferences');
  const handled = table('handled_events');
  const recentPosts = table('recent_posts');

  const SELECT = Prisma.sql`
    SELECT n.id, n.user_id, n.kind, n.latest_at, n.read, n.actor_user_id, n.actor_profile_id, n.actor_first_name,
           n.actor_last_name, n.target_type, n.target_id, n.target_post_id, n.post_title, n.details,
           (SELECT count(*)::int FROM ${likers} l WHERE l.notification_id = n.id) AS likers
    FROM ${notifications} n`;

  /** Marks the event handled; false when it already was (a redelivery changes nothing). */
  const firstTime = async (tx: Tx, key: string) =>
    (await tx.$executeRaw`INSERT INTO ${handled} (key) VALUES (${key}) ON CONFLICT DO NOTHING`) === 1;

  const announce = async (tx: Tx, userIds: Iterable<string>) => {
    for (const userId of new Set(userIds))
      await tx.$executeRaw`SELECT pg_notify(${UNREAD_CHANNEL}, ${userId})`;
  };

  const unreadCount = async (client: Tx | PrismaClient, userId: string) => {
    const [row] = await client.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM ${notifications} WHERE user_id = ${userId} AND NOT read`;
    return row?.count ?? 0;
  };

  const ensureRow = (client: Tx | PrismaClient, userIds: string[]) => client.$executeRaw`
    INSERT INTO ${preferences} (user_id, unsubscribe_token)
    SELECT u, ${NEW_TOKEN} FROM unnest(${userIds}::text[]) AS u
    ON CONFLICT (user_id) DO NOTHING`;

  return {
    add: (key, n) =>
      prisma.$transaction(async (tx) => {
        if (!(await firstTime(tx, key))) return null;
        const [row] = await tx.$queryRaw<{ id: bigint }[]>`
          INSERT INTO ${notifications} (user_id, kind, created_at, latest_at, actor_user_id, actor_profile_id,
            actor_first_name, actor_last_name, target_type, target_id, target_post_id, post_title, details)
          VALUES (${n.userId}, ${n.kind}, ${n.at}, ${n.at}, ${n.actor?.userId ?? null}, ${n.actor?.profileId ?? null},
            ${n.actor?.firstName ?? ''}, ${n.actor?.lastName ?? ''}, ${n.target.type}, ${n.target.id},
            ${n.target.postId}, ${n.postTitle}, ${JSON.stringify(n.details)}::jsonb)
          RETURNING id`;
        await announce(tx, [n.userId]);
        const [stored] = await tx.$queryRaw<Row[]>`${SELECT} WHERE n.id = ${row?.id}`;
        return stored ? notificationOf(stored) : null;
      }),

    addLike: (key, like, groupMs) =>
      prisma.$transaction(async (tx) => {
        if (!(await firstTime(tx, key))) return;
        const since = new Date(like.at.getTime() - groupMs);
        const [group] = await tx.$queryRaw<{ id: bigint }[]>`
          SELECT id FROM ${notifications}
          WHERE user_id = ${like.userId} AND kind = 'like' AND target_id = ${like.postId} AND created_at > ${since}
          ORDER BY created_at DESC LIMIT 1 FOR UPDATE`;
        const { actor } = like;
        let id = group?.id;
        if (id === undefined) {
          const [row] = await tx.$queryRaw<{ id: bigint }[]>`
            INSERT INTO ${notifications} (user_id, kind, created_at, latest_at, actor_user_id, actor_profile_id,
              actor_first_name, actor_last_name, target_type, target_id, post_title, details)
            VALUES (${like.userId}, 'like', ${like.at}, ${like.at}, ${actor.userId}, ${actor.profileId},
              ${actor.firstName}, ${actor.lastName}, 'post', ${like.postId}, ${like.postTitle}, '{"kind":"like"}'::jsonb)
            RETURNING id`;
          id = row?.id as bigint;
        } else {
          // Unread again, at the top, with the newest liker named.
          await tx.$executeRaw`
            UPDATE ${notifications} SET latest_at = GREATEST(latest_at, ${like.at}), read = false,
              actor_user_id = ${actor.userId}, actor_profile_id = ${actor.profileId},
              actor_first_name = ${actor.firstName}, actor_last_name = ${actor.lastName}, post_title = ${like.postTitle}
            WHERE id = ${id}`;
        }
        await tx.$executeRaw`
          INSERT INTO ${likers} (notification_id, user_id, profile_id, first_name, last_name, liked_at)
          VALUES (${id}, ${actor.userId}, ${actor.profileId}, ${actor.firstName}, ${actor.lastName}, ${like.at})
          ON CONFLICT (notification_id, user_id) DO UPDATE SET liked_at = EXCLUDED.liked_at,
            first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name`;
        await announce(tx, [like.userId]);
      }),

    addRecentPost: (key, post) =>
      prisma.$transaction(async (tx) => {
        if (!(await firstTime(tx, key))) return;
        await tx.$executeRaw`
          INSERT INTO ${recentPosts} (post_id, title, issue_area_ids, author_user_id, created_at)
          VALUES (${post.postId}, ${post.title}, ${post.issueAreaIds}::int[], ${post.authorUserId}, ${post.createdAt})
          ON CONFLICT (post_id) DO NOTHING`;
      }),

    deleteMember: (key, userId) =>
      prisma.$transaction(async (tx) => {
        if (!(await firstTime(tx, key))) return;
        const touched: string[] = [];
        // Their likes leave others' groups: a group left empty goes, another names its newest remaining liker.
        const groups = (
          await tx.$queryRaw<{ id: bigint }[]>`
            DELETE FROM ${likers} WHERE user_id = ${userId} RETURNING notification_id AS id`
        ).map((row) => row.id);
        if (groups.length > 0) {
          const emptied = await tx.$queryRaw<{ user_id: string }[]>`
            DELETE FROM ${notifications} n WHERE n.id = ANY(${groups}::bigint[])
              AND NOT EXISTS (SELECT 1 FROM ${likers} l WHERE l.notification_id = n.id)
            RETURNING n.user_id`;
          touched.push(...emptied.map((row) => row.user_id));
          await tx.$executeRaw`
            UPDATE ${notifications} n SET actor_user_id = l.user_id, actor_profile_id = l.profile_id,
              actor_first_name = l.first_name, actor_last_name = l.last_name
            FROM (SELECT DISTINCT ON (notification_id) * FROM ${likers}
                  WHERE notification_id = ANY(${groups}::bigint[]) ORDER BY notification_id, liked_at DESC) l
            WHERE n.id = l.notification_id AND n.actor_user_id = ${userId}`;
        }
        const acted = await tx.$queryRaw<{ user_id: string }[]>`
          DELETE FROM ${notifications} WHERE actor_user_id = ${userId} AND kind <> 'like' RETURNING user_id`;
        touched.push(...acted.map((row) => row.user_id));
        await tx.$executeRaw`DELETE FROM ${notifications} WHERE user_id = ${userId}`;
        await tx.$executeRaw`DELETE FROM ${preferences} WHERE user_id = ${userId}`;
        await tx.$executeRaw`DELETE FROM ${recentPosts} WHERE author_user_id = ${userId}`;
        await announce(tx, [userId, ...touched]);
      }),

    async skip(key) {
      await prisma.$executeRaw`INSERT INTO ${handled} (key) VALUES (${key}) ON CONFLICT DO NOTHING`;
    },

    async page(userId, before, limit) {
      const older =
        before === 0
          ? Prisma.empty
          : Prisma.sql`AND (n.latest_at, n.id) < (SELECT latest_at, id FROM ${notifications}
                                                  WHERE id = ${before} AND user_id = ${userId})`;
      const rows = await prisma.$queryRaw<Row[]>`
        ${SELECT} WHERE n.user_id = ${userId} ${older} ORDER BY n.latest_at DESC, n.id DESC LIMIT ${limit}`;
      return { items: rows.map(notificationOf), unreadCount: await unreadCount(prisma, userId) };
    },

    markRead: (userId, ids) =>
      prisma.$transaction(async (tx) => {
        const which = ids === 'all' ? Prisma.empty : Prisma.sql`AND id = ANY(${ids}::bigint[])`;
        const changed = await tx.$executeRaw`
          UPDATE ${notifications} SET read = true WHERE user_id = ${userId} AND NOT read ${which}`;
        if (changed > 0) await announce(tx, [userId]);
        return unreadCount(tx, userId);
      }),

    unreadCount: (userId) => unreadCount(prisma, userId),

    async preferences(userId) {
      const [row] = await prisma.$queryRaw<PreferenceRow[]>`
        SELECT email_digest, email_now_mention, email_now_claim, email_now_moderation
        FROM ${preferences} WHERE user_id = ${userId}`;
      return preferencesOf(row);
    },

    async setPreferences(userId, chosen) {
      const [row] = await prisma.$queryRaw<PreferenceRow[]>`
        INSERT INTO ${preferences} (user_id, email_digest, email_now_mention, email_now_claim, email_now_moderation,
          unsubscribe_token)
        VALUES (${userId}, ${chosen.email_digest}, ${chosen.email_now.mention}, ${chosen.email_now.claim},
          ${chosen.email_now.moderation}, ${NEW_TOKEN})
        ON CONFLICT (user_id) DO UPDATE SET email_digest = EXCLUDED.email_digest,
          email_now_mention = EXCLUDED.email_now_mention, email_now_claim = EXCLUDED.email_now_claim,
          email_now_moderation = EXCLUDED.email_now_moderation
        RETURNING email_digest, email_now_mention, email_now_claim, email_now_moderation`;
      return preferencesOf(row);
    },

    async unsubscribeToken(userId) {
      await ensureRow(prisma, [userId]);
      const [row] = await prisma.$queryRaw<{ token: string }[]>`
        SELECT unsubscribe_token AS token FROM ${preferences} WHERE user_id = ${userId}`;
      if (!row) throw new Error('The member’s preferences row went away while it was read');
      return row.token;
    },

    async unsubscribe(token) {
      const changed = await prisma.$executeRaw`
        UPDATE ${preferences} SET email_digest = 'off', email_now_mention = false, email_now_claim = false,
          email_now_moderation = false
        WHERE unsubscribe_token = ${token}`;
      return changed > 0;
    },

    async exportMine(userId) {
      const rows = await prisma.$queryRaw<Row[]>`
        ${SELECT} WHERE n.user_id = ${userId} ORDER BY n.latest_at DESC, n.id DESC`;
      const [row] = await prisma.$queryRaw<PreferenceRow[]>`
        SELECT email_digest, email_now_mention, email_now_claim, email_now_moderation
        FROM ${preferences} WHERE user_id = ${userId}`;
      return { notifications: rows.map(notificationOf), preferences: preferencesOf(row) };
    },

    async ensurePreferences(userIds) {
      if (userIds.length > 0) await ensureRow(prisma, userIds);
    },

    async dueForDigest(userIds, at) {
      const rows = await prisma.$queryRaw<
        {
          user_id: string;
          email_digest: 'daily' | 'weekly';
          last_digest_at: Date | null;
          unsubscribe_token: string;
        }[]
      >`
        SELECT user_id, email_digest, last_digest_at, unsubscribe_token FROM ${preferences}
        WHERE user_id = ANY(${userIds}::text[]) AND email_digest IN ('daily', 'weekly')
          AND (last_digest_at IS NULL OR last_digest_at <= ${at}::timestamptz
               - (CASE email_digest WHEN 'daily' THEN interval '1 day' ELSE interval '7 days' END) + ${DUE_SLACK})
        ORDER BY user_id`;
      return rows.map(
        (row): DigestMember => ({
          userId: row.user_id,
          digest: row.email_digest,
          lastDigestAt: row.last_digest_at,
          unsubscribeToken: row.unsubscribe_token,
        }),
      );
    },

    async membersWithUnread(afterUserId, limit) {
      const rows = await prisma.$queryRaw<{ user_id: string }[]>`
        SELECT DISTINCT user_id FROM ${notifications} WHERE NOT read AND user_id > ${afterUserId}
        ORDER BY user_id LIMIT ${limit}`;
      return rows.map((row) => row.user_id);
    },

    async unreadSince(userId, since, limit) {
      const rows = await prisma.$queryRaw<Row[]>`
        ${SELECT} WHERE n.user_id = ${userId} AND NOT n.read AND n.latest_at > ${since}
        ORDER BY n.latest_at DESC, n.id DESC LIMIT ${limit}`;
      const [count] = await prisma.$queryRaw<{ count: number }[]>`
        SELECT count(*)::int AS count FROM ${notifications}
        WHERE user_id = ${userId} AND NOT read AND latest_at > ${since}`;
      return { items: rows.map(notificationOf), total: count?.count ?? 0 };
    },

    async postsSince(issueAreaIds, since, excludeAuthor, limit) {
      const rows = await prisma.$queryRaw<
        {
          post_id: bigint;
          title: string;
          issue_area_ids: number[];
          author_user_id: string;
          created_at: Date;
        }[]
      >`
        SELECT post_id, title, issue_area_ids, author_user_id, created_at FROM ${recentPosts}
        WHERE created_at > ${since} AND issue_area_ids && ${issueAreaIds}::int[] AND author_user_id <> ${excludeAuthor}
        ORDER BY created_at DESC, post_id DESC LIMIT ${limit}`;
      return rows.map(
        (row): RecentPost => ({
          postId: Number(row.post_id),
          title: row.title,
          issueAreaIds: row.issue_area_ids,
          authorUserId: row.author_user_id,
          createdAt: row.created_at,
        }),
      );
    },

    async claimDigest(userId, previous, at) {
      // Of two runs that read the same `previous`, the second waits for the first's row lock, then finds the
      // slot already moved and changes nothing.
      const changed = await prisma.$executeRaw`
        UPDATE ${preferences} SET last_digest_at = ${at}
        WHERE user_id = ${userId} AND last_digest_at IS NOT DISTINCT FROM ${previous}::timestamptz`;
      return changed === 1;
    },

    async releaseDigest(userId, at, previous) {
      await prisma.$executeRaw`
        UPDATE ${preferences} SET last_digest_at = ${previous}::timestamptz
        WHERE user_id = ${userId} AND last_digest_at = ${at}`;
    },

    async prune(before, handledBefore) {
      await prisma.$executeRaw`DELETE FROM ${recentPosts} WHERE created_at < ${before}`;
      await prisma.$executeRaw`DELETE FROM ${handled} WHERE handled_at < ${handledBefore}`;
    },
  };
}
