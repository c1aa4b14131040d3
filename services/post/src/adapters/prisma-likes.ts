// Likes and reads in the post schema through Prisma: one like per member and post and the post's counter moved
// with it (and the like recorded for the post's author, ADR 0042), reads counted atomically, each of a post the caller
// may see.
import type { SearchOutbox } from '@rotunda/service-kit';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { LikeStore } from '../domain/ports.ts';
import { isKnownError, recordAll, type SchemaTables, visibleTo } from './prisma-sql.ts';

export function prismaLikeStore(
  prisma: PrismaClient,
  { table }: SchemaTables,
  outbox: SearchOutbox,
): LikeStore {
  return {
    async setLike(postId, userId, liked, onLiked = []) {
      try {
        return await prisma.$transaction(async (tx) => {
          // The primary key decides: of two likes at once by one member, one inserts and the other does
          // nothing; the counter moves only with the row that did, under the post's row lock.
          const changed = liked
            ? await tx.$executeRaw`
                INSERT INTO ${table('likes')} (post_id, user_id)
                SELECT ${postId}, ${userId} WHERE EXISTS (SELECT 1 FROM ${table('posts')} WHERE post_id = ${postId})
                ON CONFLICT DO NOTHING`
            : await tx.$executeRaw`
                DELETE FROM ${table('likes')} WHERE post_id = ${postId} AND user_id = ${userId}`;
          const [row] = changed
            ? await tx.$queryRaw<{ likes_count: number }[]>`
                UPDATE ${table('posts')} SET likes_count = likes_count + ${liked ? 1 : -1}
                WHERE post_id = ${postId} RETURNING likes_count`
            : await tx.$queryRaw<{ likes_count: number }[]>`
                SELECT likes_count FROM ${table('posts')} WHERE post_id = ${postId}`;
          // Only the call that set the like tells of it: a repeat like of the same member changes nothing.
          if (changed && liked && row) await recordAll(tx, onLiked);
          // The count orders the popular feed.
          if (changed && row) await outbox.record(tx, [postId]);
          return row ? { likesCount: row.likes_count } : null;
        });
      } catch (error) {
        // The post was deleted while the like was written.
        if (isKnownError(error, 'P2003') || String(error).includes('likes_post_id_fkey')) return null;
        throw error;
      }
    },

    async likedPostIds(viewer) {
      const rows = await prisma.$queryRaw<{ postId: number }[]>`
        SELECT l.post_id AS "postId" FROM ${table('likes')} l
        JOIN ${table('posts')} p ON p.post_id = l.post_id
        WHERE l.user_id = ${viewer.userId} AND ${visibleTo('p', viewer)}
        ORDER BY l.created_at DESC, l.post_id DESC`;
      return rows.map((row) => row.postId);
    },

    async addRead(postId, viewer) {
      const [row] = await prisma.$queryRaw<{ reads: number }[]>`
        UPDATE ${table('posts')} p SET reads = reads + 1
        WHERE p.post_id = ${postId} AND ${visibleTo('p', viewer)} RETURNING reads`;
      return row ? row.reads : null;
    },
  };
}
