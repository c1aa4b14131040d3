// Posts in the post schema through Prisma, and what the search index reads of them. Raw SQL where Prisma has no
// words for it: the feed page read in one statement (bylines from the read copies, each post's latest comments
// and their count, in the index's order, only what the viewer may see), and the index's rows with their authors'
// names and issue areas and who may find them.
import { POST_FIELD_NAMES, type PostFieldKey, postFieldKey } from '@rotunda/rules';
import { markCreated, type ReadDriver, type SearchOutbox } from '@rotunda/service-kit';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { IndexedPostStore, PostStore, StoredPost } from '../domain/ports.ts';
import type { IndexedPost, Post } from '../domain/post.ts';
import type { ModerationState } from '../domain/visibility.ts';
import { bylineOf, type CommentJson, commentOf } from './prisma-comments.ts';
import {
  epochMs,
  mentionsJson,
  mentionsOf,
  moderationOf,
  recordAll,
  type SchemaTables,
  visibleTo,
  visibleToParams,
} from './prisma-sql.ts';

/** The columns of a post's written fields (POST_FIELDS), for a select. */
const POST_FIELD_COLUMNS = Object.fromEntries(
  POST_FIELD_NAMES.map((name) => [postFieldKey(name), true]),
) as Record<PostFieldKey, true>;

/** A date column's value as the YYYY-MM-DD the rules and answers use (Prisma reads DATE as UTC midnight). */
const dayOf = (value: Date | null): string | null => (value ? value.toISOString().slice(0, 10) : null);
const dateOf = (day: string | null | undefined) =>
  day === undefined ? undefined : day === null ? null : new Date(`${day}T00:00:00Z`);

/** A post as the page statement builds it in JSON: instants in epoch milliseconds. */
interface PostJson
  extends Omit<Post, 'author' | 'comments' | 'createdAt' | 'updatedAt' | 'moderation' | 'mentions'> {
  createdAt: number;
  updatedAt: number;
  authorFirstName: string | null;
  authorLastName: string | null;
  authorUserId: string | null;
  authorKnown: boolean;
  comments: CommentJson[];
  modState: string;
  modReason: string | null;
  modAutomatic: boolean;
  mentions: unknown;
}

function postOf({
  authorFirstName,
  authorLastName,
  authorUserId,
  authorKnown,
  comments,
  createdAt,
  updatedAt,
  modState,
  modReason,
  modAutomatic,
  mentions,
  ...row
}: PostJson): Post {
  return {
    ...row,
    mentions: mentionsOf(mentions),
    moderation: moderationOf({ modState, modReason, modAutomatic }),
    createdAt: new Date(createdAt),
    updatedAt: new Date(updatedAt),
    author: bylineOf(
      row.authorId,
      authorKnown ? { firstName: authorFirstName, lastName: authorLastName, userId: authorUserId } : null,
    ),
    comments: comments.map(commentOf),
  };
}

/**
 * `readDriver` serves findByIds when given (the composition root gives one); without it (tests, tools) the same
 * statement runs through Prisma Client.
 */
export function prismaPostStore(
  prisma: PrismaClient,
  { table, qualified }: SchemaTables,
  readDriver: ReadDriver | undefined,
  outbox: SearchOutbox,
): PostStore & IndexedPostStore {
  // The whole page as one JSON text: one value to read, every conversion stated here. Bylines come from the read
  // copies; each post's latest $2 comments are aggregated oldest first, with the count of all (so a page's size
  // never grows with the comments); posts keep the order of the ids given (missing ones skipped). Posts and
  // comments the viewer ($3 user id, $4 contributor) may not see are left out, of the count too.
  const seen = (alias: string) => visibleToParams(alias, '$3', '$4');
  const pageSql = `
    SELECT coalesce(json_agg(json_build_object(
             'postId', p.post_id, 'title', p.post_title, 'body', p.post_body, 'authorId', p.post_author,
             'userId', p.user_id, 'organizationId', p.organization_id, 'divisionId', p.division_id,
             'organizationName', o.organization_name, 'divisionName', d.division_name,
             'postTypeId', p.posttype_id, 'postType', pt.post_type,
             'eventTypeId', p.eventtype_id, 'eventType', et.event_type, 'eventLocation', p.event_location,
             'eventDate', to_char(p.event_date, 'YYYY-MM-DD'), 'eventStart', p.event_start, 'eventEnd', p.event_end,
             'likesCount', p.likes_count, 'reads', p.reads,
             'createdAt', ${epochMs('p.created_at')}, 'updatedAt', ${epochMs('p.updated_at')},
             'authorFirstName', a.first_name, 'authorLastName', a.last_name, 'authorUserId', a.user_id,
             'authorKnown', a.profile_id IS NOT NULL,
             'modState', p.moderation_state, 'modReason', p.moderation_reason,
             'modAutomatic', p.moderation_automatic,
             'mentions', ${mentionsJson(qualified('post_mentions'), qualified('authors'), 'post_id', 'p')},
             'commentsCount', (SELECT count(*) FROM ${qualified('comments')} n
                               WHERE n.post_id = p.post_id AND ${seen('n')}),
             'comments', coalesce((
               SELECT json_agg(json_build_object(
                        'commentId', c.comment_id, 'postId', c.post_id, 'authorId', c.comment_author,
                        'userId', c.user_id, 'body', c.comment_body,
                        'createdAt', ${epochMs('c.created_at')}, 'updatedAt', ${epochMs('c.updated_at')},
                        'firstName', ca.first_name, 'lastName', ca.last_name, 'authorUserId', ca.user_id,
                        'authorKnown', ca.profile_id IS NOT NULL,
                        'modState', c.moderation_state, 'modReason', c.moderation_reason,
                        'modAutomatic', c.moderation_automatic,
                        'mentions', ${mentionsJson(qualified('comment_mentions'), qualified('authors'), 'comment_id', 'c')})
                      ORDER BY c.created_at, c.comment_id)
               FROM (SELECT * FROM ${qualified('comments')} l
                     WHERE l.post_id = p.post_id AND ${seen('l')}
                     ORDER BY l.created_at DESC, l.comment_id DESC
                     LIMIT $2) c
               LEFT JOIN ${qualified('authors')} ca ON ca.profile_id = c.comment_author), '[]'::json))
           ORDER BY wanted.position), '[]'::json)::text AS page
    FROM unnest($1::integer[]) WITH ORDINALITY AS wanted (id, position)
    JOIN ${qualified('posts')} p ON p.post_id = wanted.id
    JOIN ${qualified('post_types')} pt ON pt.posttype_id = p.posttype_id
    LEFT JOIN ${qualified('event_types')} et ON et.eventtype_id = p.eventtype_id
    LEFT JOIN ${qualified('authors')} a ON a.profile_id = p.post_author
    LEFT JOIN ${qualified('organizations')} o ON o.organization_id = p.organization_id
    LEFT JOIN ${qualified('divisions')} d ON d.division_id = p.division_id
    WHERE ${seen('p')}`;

  const indexedPostsWhere = (where: Prisma.Sql, limit?: number) =>
    prisma.$queryRaw<IndexedPost[]>`
      SELECT p.post_id AS "postId", p.post_title AS title, p.body_text AS "bodyText",
             coalesce(a.first_name, '') AS "authorFirstName", coalesce(a.last_name, '') AS "authorLastName",
             p.posttype_id AS "postTypeId", p.created_at AS "createdAt", p.likes_count AS "likesCount",
             coalesce(a.issue_area_ids, '{}') AS "authorIssueAreaIds",
             p.user_id AS "userId", p.moderation_state AS "moderationState"
      FROM ${table('posts')} p
      LEFT JOIN ${table('authors')} a ON a.profile_id = p.post_author
      WHERE ${where}
      ORDER BY p.post_id
      ${limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${limit}`}`;

  return {
    count: () => prisma.post.count(),

    // Every feed page reads its rows here: through the driver with the statement prepared, it costs a small
    // part of the CPU Prisma Client spends on it (ADR 0033).
    async findByIds(ids, latestComments, viewer) {
      if (ids.length === 0) return [];
      let page: string | undefined;
      const args = [[...ids], latestComments, viewer.userId, viewer.contributor];
      if (readDriver) {
        const { rows } = await readDriver.queryRaw({
          sql: pageSql,
          args,
          argTypes: [
            { scalarType: 'int', arity: 'list' },
            { scalarType: 'int', arity: 'scalar' },
            { scalarType: 'string', arity: 'scalar' },
            { scalarType: 'boolean', arity: 'scalar' },
          ],
        });
        page = rows[0]?.[0] as string | undefined;
      } else {
        const [row] = await prisma.$queryRawUnsafe<{ page: string }[]>(pageSql, ...args);
        page = row?.page;
      }
      return (JSON.parse(page ?? '[]') as PostJson[]).map(postOf);
    },

    async findStored(postId): Promise<StoredPost | null> {
      const row = await prisma.post.findUnique({
        where: { postId },
        select: {
          postId: true,
          userId: true,
          ...POST_FIELD_COLUMNS,
          bodyText: true,
          modState: true,
        },
      });
      if (!row) return null;
      const { modState, ...stored } = row;
      return { ...stored, eventDate: dayOf(row.eventDate), moderationState: modState as ModerationState };
    },

    visibleAddresses: (limit) =>
      prisma.post.findMany({
        where: { modState: 'visible' },
        orderBy: [{ createdAt: 'desc' }, { postId: 'desc' }],
        take: limit,
        select: { postId: true, updatedAt: true },
      }),

    async create(post, { createdAt = new Date(), reads = 0, mentions = [], events } = {}) {
      return prisma.$transaction(async (tx) => {
        const row = await tx.post.create({
          // Both instants equal, so a post (like a comment) reads as edited only once it was.
          data: {
            ...post,
            eventDate: dateOf(post.eventDate) ?? null,
            reads,
            createdAt,
            updatedAt: createdAt,
          },
          select: { postId: true },
        });
        await tx.postMention.createMany({
          data: mentions.map((profileId, position) => ({ postId: row.postId, profileId, position })),
        });
        if (events) {
          const author = await tx.author.findUnique({
            where: { profileId: post.authorId },
            select: { issueAreaIds: true },
          });
          const authorIssueAreaIds = author?.issueAreaIds ?? [];
          await recordAll(tx, events({ postId: row.postId, createdAt, authorIssueAreaIds }));
        }
        await outbox.record(tx, [row.postId]);
        await markCreated(tx, row.postId);
        return row.postId;
      });
    },

    update(postId, changes) {
      return prisma.$transaction(async (tx) => {
        const { count } = await tx.post.updateMany({
          where: { postId },
          data: { ...changes, eventDate: dateOf(changes.eventDate), updatedAt: new Date() },
        });
        if (count > 0) await outbox.record(tx, [postId]);
        return count > 0;
      });
    },

    delete(postId) {
      return prisma.$transaction(async (tx) => {
        const { count } = await tx.post.deleteMany({ where: { postId } });
        if (count > 0) await outbox.record(tx, [postId]);
        return count > 0;
      });
    },

    async indexedPosts(ids) {
      if (ids.length === 0) return [];
      return indexedPostsWhere(Prisma.sql`p.post_id = ANY(${[...ids]}::integer[])`);
    },

    async feedPageIds({ viewer, postTypeId, issueAreaIds, sort, seed, offset, limit }) {
      const order =
        sort === 'popular'
          ? Prisma.sql`p.likes_count DESC, p.created_at DESC, p.post_id DESC`
          : sort === 'random'
            ? Prisma.sql`md5(p.post_id::text || ':' || ${String(seed)}::text), p.post_id`
            : Prisma.sql`p.created_at DESC, p.post_id DESC`;
      const rows = await prisma.$queryRaw<{ postId: number }[]>`
        SELECT p.post_id AS "postId"
        FROM ${table('posts')} p
        LEFT JOIN ${table('authors')} a ON a.profile_id = p.post_author
        WHERE ${visibleTo('p', viewer)}
          AND (${postTypeId}::integer = 0 OR p.posttype_id = ${postTypeId}::integer)
          AND (${issueAreaIds === null} OR coalesce(a.issue_area_ids, '{}') && ${issueAreaIds ?? []}::integer[])
        ORDER BY ${order}
        OFFSET ${offset} LIMIT ${limit}`;
      return rows.map((row) => row.postId);
    },

    async forEachIndexBatch(batchSize, visit, authorId) {
      let after = 0;
      for (;;) {
        const batch = await indexedPostsWhere(
          authorId === undefined
            ? Prisma.sql`p.post_id > ${after}`
            : Prisma.sql`p.post_id > ${after} AND p.post_author = ${authorId}`,
          batchSize,
        );
        if (batch.length === 0) return;
        await visit(batch);
        after = batch.at(-1)?.postId ?? after;
      }
    },
  };
}
