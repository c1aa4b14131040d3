// One member's data in the post schema through Prisma (ADR 0042): everything of theirs deleted in one transaction
// when their account is (the like counts of the posts they liked follow), and their own rows exported.
import {
  COMMENT_FIELD_NAMES,
  COMMENT_FIELDS,
  type CommentFieldName,
  POST_FIELD_NAMES,
  type PostFieldAnswers,
  type PostFieldKey,
  type PostFieldName,
  postFieldKey,
} from '@rotunda/rules';
import { idempotencyKeyOwner, type SearchOutbox } from '@rotunda/service-kit';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { MemberExport } from '../domain/member-export.ts';
import type { MembersDataStore } from '../domain/ports.ts';
import type { SchemaTables } from './prisma-sql.ts';

const iso = (value: Date) => value.toISOString();

/**
 * A stored post's written fields under the export's names (POST_FIELDS), its event date as YYYY-MM-DD: a row
 * the model lacks does not compile.
 */
function postFieldsOf(post: Record<PostFieldKey, string | number | Date | null>): PostFieldAnswers {
  const fields: Partial<Record<PostFieldName, unknown>> = {};
  for (const name of POST_FIELD_NAMES) {
    const value = post[postFieldKey(name)];
    fields[name] = value instanceof Date ? iso(value).slice(0, 10) : value;
  }
  return fields as PostFieldAnswers;
}

/** A stored comment's written fields under the export's names (COMMENT_FIELDS). */
const commentFieldsOf = (comment: Record<(typeof COMMENT_FIELDS)[CommentFieldName]['key'], string>) =>
  Object.fromEntries(COMMENT_FIELD_NAMES.map((name) => [name, comment[COMMENT_FIELDS[name].key]])) as Record<
    CommentFieldName,
    string
  >;

export function prismaMembersDataStore(
  prisma: PrismaClient,
  { table }: SchemaTables,
  outbox: SearchOutbox,
): MembersDataStore {
  return {
    deleteMemberData(userId) {
      return prisma.$transaction(async (tx) => {
        const profiles = await tx.author.findMany({ where: { userId }, select: { profileId: true } });
        const profileIds = profiles.map((profile) => profile.profileId);
        // The likes they gave others' posts leave those posts' counts (one like per member and post).
        const changed = await tx.$queryRaw<{ postId: number }[]>`
          UPDATE ${table('posts')} p SET likes_count = p.likes_count - 1
          FROM ${table('likes')} l
          WHERE l.post_id = p.post_id AND l.user_id = ${userId} AND p.user_id <> ${userId}
          RETURNING p.post_id AS "postId"`;
        await tx.like.deleteMany({ where: { userId } });
        // Their posts take their comments, likes and mentions with them (the foreign keys cascade).
        const deleted = await tx.$queryRaw<{ postId: number }[]>`
          DELETE FROM ${table('posts')} WHERE user_id = ${userId} RETURNING post_id AS "postId"`;
        await tx.comment.deleteMany({ where: { userId } });
        await tx.postMention.deleteMany({ where: { profileId: { in: profileIds } } });
        await tx.commentMention.deleteMany({ where: { profileId: { in: profileIds } } });
        await tx.report.deleteMany({ where: { reporterId: userId } });
        // Reports of what is gone now: theirs, and others' comments on their posts.
        await tx.$executeRaw`
          DELETE FROM ${table('reports')} r
          WHERE (r.target_type = 'post'
                 AND NOT EXISTS (SELECT 1 FROM ${table('posts')} p WHERE p.post_id = r.target_id))
             OR (r.target_type = 'comment'
                 AND NOT EXISTS (SELECT 1 FROM ${table('comments')} c WHERE c.comment_id = r.target_id))`;
        await tx.suspension.deleteMany({ where: { userId } });
        await tx.commentAllowance.deleteMany({ where: { userId } });
        await tx.reportAllowance.deleteMany({ where: { userId } });
        // The answers kept for their creates' Idempotency-Keys hold what they wrote.
        await tx.idempotencyKey.deleteMany({ where: { owner: idempotencyKeyOwner(userId) } });
        // The moderation log keeps its decisions by user id; the names it shows come from this copy, so they go.
        await tx.author.deleteMany({ where: { userId } });
        await outbox.record(
          tx,
          [...changed, ...deleted].map((row) => row.postId),
        );
        return {
          deletedPostIds: deleted.map((row) => row.postId),
          changedPostIds: changed.map((row) => row.postId),
        };
      });
    },

    async exportMemberData(userId): Promise<MemberExport> {
      const [posts, comments, likes, reports] = await Promise.all([
        prisma.post.findMany({
          where: { userId },
          orderBy: { postId: 'asc' },
          include: { mentions: { orderBy: { position: 'asc' } } },
        }),
        prisma.comment.findMany({
          where: { userId },
          orderBy: { commentId: 'asc' },
          include: { mentions: { orderBy: { position: 'asc' } } },
        }),
        prisma.like.findMany({ where: { userId }, orderBy: [{ createdAt: 'asc' }, { postId: 'asc' }] }),
        prisma.report.findMany({ where: { reporterId: userId }, orderBy: { reportId: 'asc' } }),
      ]);
      return {
        reports: reports.map((report) => ({
          report_id: report.reportId,
          target_type: report.targetType,
          target_id: report.targetId,
          reason: report.reason,
          note: report.note,
          created_at: iso(report.createdAt),
          closed_at: report.closedAt ? iso(report.closedAt) : null,
          outcome: report.outcome,
        })),
        posts: posts.map((post) => ({
          post_id: post.postId,
          ...postFieldsOf(post),
          organization_id: post.organizationId,
          division_id: post.divisionId,
          likes_count: post.likesCount,
          reads: post.reads,
          created_at: iso(post.createdAt),
          updated_at: iso(post.updatedAt),
          moderation_state: post.modState,
          moderation_reason: post.modReason,
          mentions: post.mentions.map((mention) => mention.profileId),
        })),
        comments: comments.map((comment) => ({
          comment_id: comment.commentId,
          post_id: comment.postId,
          ...commentFieldsOf(comment),
          created_at: iso(comment.createdAt),
          updated_at: iso(comment.updatedAt),
          moderation_state: comment.modState,
          moderation_reason: comment.modReason,
          mentions: comment.mentions.map((mention) => mention.profileId),
        })),
        likes: likes.map((like) => ({ post_id: like.postId, created_at: iso(like.createdAt) })),
      };
    },
  };
}
