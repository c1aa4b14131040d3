// Comments and the members' comment allowances in the post schema through Prisma: pages of earlier comments with
// their bylines from the read copy (raw SQL, as the feed page's latest ones; only those the viewer may see), and
// the allowance counted in the database so every replica shares it (reports' allowance too).
import { markCreated } from '@rotunda/service-kit';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { CommentAllowance, CommentStore } from '../domain/ports.ts';
import type { AuthorName, Comment } from '../domain/post.ts';
import {
  isKnownError,
  mentionsJson,
  mentionsOf,
  moderationOf,
  recordAll,
  type SchemaTables,
  visibleTo,
} from './prisma-sql.ts';

/** A comment row with its byline: instants in epoch milliseconds (JSON) or as dates (a plain query). */
export interface CommentJson {
  commentId: number;
  postId: number;
  authorId: number;
  userId: string;
  body: string;
  createdAt: number | Date;
  updatedAt: number | Date;
  firstName: string | null;
  lastName: string | null;
  authorUserId: string | null;
  authorKnown: boolean;
  modState: string;
  modReason: string | null;
  modAutomatic: boolean;
  /** The mentions as JSON (mentionsJson). */
  mentions: unknown;
}

/** The byline of a row joined to the read copy of authors; null when the copy does not know the author (yet). */
export function bylineOf(
  profileId: number,
  row: { firstName: string | null; lastName: string | null; userId: string | null } | null,
): AuthorName | null {
  return row
    ? { profileId, firstName: row.firstName ?? '', lastName: row.lastName ?? '', userId: row.userId }
    : null;
}

export function commentOf(row: CommentJson): Comment {
  return {
    commentId: row.commentId,
    postId: row.postId,
    authorId: row.authorId,
    userId: row.userId,
    body: row.body,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    author: bylineOf(row.authorId, row.authorKnown ? { ...row, userId: row.authorUserId } : null),
    moderation: moderationOf(row),
    mentions: mentionsOf(row.mentions),
  };
}

/**
 * Spends one of the member's allowance kept in `table` (`burst` at once, then one per `intervalMs`): 0 when spent,
 * else the milliseconds until one is free. A generic cell rate: each use moves paid_until one interval on (from
 * now, once it is past); a use is allowed while paid_until is at most burst - 1 intervals ahead. The row lock of
 * ON CONFLICT makes concurrent uses of one member, on any replica, count one after the other.
 */
export async function spendAllowance(
  prisma: PrismaClient,
  table: Prisma.Sql,
  userId: string,
  { burst, intervalMs }: CommentAllowance,
): Promise<number> {
  const tolerance = (burst - 1) * intervalMs;
  const spent = await prisma.$executeRaw`
    INSERT INTO ${table} AS a (user_id, paid_until)
    VALUES (${userId}, statement_timestamp() + ${intervalMs}::float8 * interval '1 millisecond')
    ON CONFLICT (user_id) DO UPDATE
      SET paid_until = greatest(a.paid_until, statement_timestamp()) + ${intervalMs}::float8 * interval '1 millisecond'
      WHERE a.paid_until - statement_timestamp() <= ${tolerance}::float8 * interval '1 millisecond'`;
  if (spent > 0) return 0;
  const [row] = await prisma.$queryRaw<{ wait: number }[]>`
    SELECT ceil(extract(epoch FROM paid_until - statement_timestamp()) * 1000)::float8 - ${tolerance}::float8 AS wait
    FROM ${table} WHERE user_id = ${userId}`;
  return Math.max(1, row?.wait ?? intervalMs);
}

export function prismaCommentStore(prisma: PrismaClient, { table, qualified }: SchemaTables): CommentStore {
  const mentions = Prisma.raw(
    mentionsJson(qualified('comment_mentions'), qualified('authors'), 'comment_id', 'c'),
  );
  return {
    async findComment(commentId) {
      const row = await prisma.comment.findUnique({ where: { commentId } });
      if (!row) return null;
      const author = await prisma.author.findUnique({ where: { profileId: row.authorId } });
      const [named] = await prisma.$queryRaw<{ mentions: unknown }[]>`
        SELECT ${mentions} AS mentions FROM ${table('comments')} c WHERE c.comment_id = ${commentId}`;
      const { modState, modReason, modAutomatic, ...comment } = row;
      return {
        ...comment,
        author: bylineOf(row.authorId, author),
        moderation: moderationOf({ modState, modReason, modAutomatic }),
        mentions: mentionsOf(named?.mentions),
      };
    },

    async commentsBefore(postId, before, limit, viewer) {
      const rows = await prisma.$queryRaw<CommentJson[]>`
        SELECT c.comment_id AS "commentId", c.post_id AS "postId", c.comment_author AS "authorId",
               c.user_id AS "userId", c.comment_body AS body, c.created_at AS "createdAt", c.updated_at AS "updatedAt",
               ca.first_name AS "firstName", ca.last_name AS "lastName", ca.user_id AS "authorUserId",
               ca.profile_id IS NOT NULL AS "authorKnown", c.moderation_state AS "modState",
               c.moderation_reason AS "modReason", c.moderation_automatic AS "modAutomatic",
               ${mentions} AS mentions
        FROM ${table('comments')} c
        LEFT JOIN ${table('authors')} ca ON ca.profile_id = c.comment_author
        WHERE c.post_id = ${postId} AND ${visibleTo('c', viewer)}
          ${
            before
              ? Prisma.sql`AND (c.created_at, c.comment_id) < (${before.createdAt.toISOString()}::timestamptz, ${before.commentId})`
              : Prisma.empty
          }
        ORDER BY c.created_at DESC, c.comment_id DESC
        LIMIT ${limit + 1}`;
      // One more than asked for tells whether there are earlier ones.
      return { comments: rows.slice(0, limit).reverse().map(commentOf), hasEarlier: rows.length > limit };
    },

    spendCommentAllowance: (userId, allowance) =>
      spendAllowance(prisma, table('comment_allowance'), userId, allowance),

    async addComment(
      comment,
      { createdAt = new Date(), updatedAt = createdAt, mentions: named = [], events } = {},
    ) {
      try {
        return await prisma.$transaction(async (tx) => {
          const row = await tx.comment.create({
            data: { ...comment, createdAt, updatedAt },
            select: { commentId: true },
          });
          await tx.commentMention.createMany({
            data: named.map((profileId, position) => ({ commentId: row.commentId, profileId, position })),
          });
          if (events) await recordAll(tx, events({ commentId: row.commentId }));
          await markCreated(tx, row.commentId);
          return row.commentId;
        });
      } catch (error) {
        // P2003: the post went away between the check and the write.
        if (isKnownError(error, 'P2003')) return null;
        throw error;
      }
    },

    async updateComment(commentId, body) {
      const { count } = await prisma.comment.updateMany({
        where: { commentId },
        data: { body, updatedAt: new Date() },
      });
      return count > 0;
    },

    async deleteComment(commentId) {
      const { count } = await prisma.comment.deleteMany({ where: { commentId } });
      return count > 0;
    },
  };
}
