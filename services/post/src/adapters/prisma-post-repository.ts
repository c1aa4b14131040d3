// Posts, comments, likes, the fixed types, the members' comment allowances and the read copies in the post schema
// through Prisma. Raw SQL where Prisma has no words for it: the feed page read in one statement (bylines from the
// read copies, each post's latest comments and their count, in the index's order), pages of earlier comments,
// atomic counters and allowances, and batch upserts of the copies.
import type { ReadDriver } from '@rotunda/service-kit';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { PostRepository, StoredPost } from '../domain/ports.ts';
import type { Comment, IndexedPost, Post, PostChanges } from '../domain/post.ts';

/** A date column's value as the YYYY-MM-DD the rules and answers use (Prisma reads DATE as UTC midnight). */
const dayOf = (value: Date | null): string | null => (value ? value.toISOString().slice(0, 10) : null);
const dateOf = (day: string | null | undefined) =>
  day === undefined ? undefined : day === null ? null : new Date(`${day}T00:00:00Z`);

/** Rows per statement when the read copies take a whole export (one JSON parameter each). */
const COPY_BATCH = 5000;

/** A post as the page statement builds it in JSON: instants in epoch milliseconds. */
interface PostJson extends Omit<Post, 'author' | 'comments' | 'createdAt' | 'updatedAt'> {
  createdAt: number;
  updatedAt: number;
  authorFirstName: string | null;
  authorLastName: string | null;
  authorUserId: string | null;
  authorKnown: boolean;
  comments: CommentJson[];
}

/** A comment row with its byline: instants in epoch milliseconds (JSON) or as dates (a plain query). */
interface CommentJson {
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
}

function commentOf(row: CommentJson): Comment {
  return {
    commentId: row.commentId,
    postId: row.postId,
    authorId: row.authorId,
    userId: row.userId,
    body: row.body,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    author: row.authorKnown
      ? {
          profileId: row.authorId,
          firstName: row.firstName ?? '',
          lastName: row.lastName ?? '',
          userId: row.authorUserId,
        }
      : null,
  };
}

function postOf({
  authorFirstName,
  authorLastName,
  authorUserId,
  authorKnown,
  comments,
  createdAt,
  updatedAt,
  ...row
}: PostJson): Post {
  return {
    ...row,
    createdAt: new Date(createdAt),
    updatedAt: new Date(updatedAt),
    author: authorKnown
      ? {
          profileId: row.authorId,
          firstName: authorFirstName ?? '',
          lastName: authorLastName ?? '',
          userId: authorUserId,
        }
      : null,
    comments: comments.map(commentOf),
  };
}

/** Issue area ids as the copy keeps them: each once, ascending (so equal sets compare equal). */
const issueIds = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);
const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

/** An instant as epoch milliseconds in JSON (exact for timestamptz(3)), whatever the session's time zone. */
const epochMs = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)`;

const isKnownError = (error: unknown, code: string) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === code;

/**
 * `readDriver` serves findByIds when given (the composition root gives one); without it (tests, tools) the same
 * statement runs through Prisma Client.
 */
export function prismaPostRepository(
  prisma: PrismaClient,
  schema: string,
  readDriver?: ReadDriver,
): PostRepository {
  // Prisma qualifies its own queries with the adapter's schema; raw queries must name it themselves.
  const table = (name: string) => Prisma.raw(`"${schema}"."${name}"`);
  const qualified = (tableName: string) => `"${schema}"."${tableName}"`;

  // The whole page as one JSON text: one value to read, every conversion stated here. Bylines come from the read
  // copies; each post's latest $2 comments are aggregated oldest first, with the count of all (so a page's size
  // never grows with the comments); posts keep the order of the ids given (missing ones skipped).
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
             'commentsCount', (SELECT count(*) FROM ${qualified('comments')} n WHERE n.post_id = p.post_id),
             'comments', coalesce((
               SELECT json_agg(json_build_object(
                        'commentId', c.comment_id, 'postId', c.post_id, 'authorId', c.comment_author,
                        'userId', c.user_id, 'body', c.comment_body,
                        'createdAt', ${epochMs('c.created_at')}, 'updatedAt', ${epochMs('c.updated_at')},
                        'firstName', ca.first_name, 'lastName', ca.last_name, 'authorUserId', ca.user_id,
                        'authorKnown', ca.profile_id IS NOT NULL)
                      ORDER BY c.created_at, c.comment_id)
               FROM (SELECT * FROM ${qualified('comments')} l
                     WHERE l.post_id = p.post_id
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
    LEFT JOIN ${qualified('divisions')} d ON d.division_id = p.division_id`;

  const indexedPostsWhere = (where: Prisma.Sql, limit?: number) =>
    prisma.$queryRaw<IndexedPost[]>`
      SELECT p.post_id AS "postId", p.post_title AS title, p.body_text AS "bodyText",
             coalesce(a.first_name, '') AS "authorFirstName", coalesce(a.last_name, '') AS "authorLastName",
             p.posttype_id AS "postTypeId", p.created_at AS "createdAt", p.likes_count AS "likesCount",
             coalesce(a.issue_area_ids, '{}') AS "authorIssueAreaIds"
      FROM ${table('posts')} p
      LEFT JOIN ${table('authors')} a ON a.profile_id = p.post_author
      WHERE ${where}
      ORDER BY p.post_id
      ${limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${limit}`}`;

  return {
    async ensureTypes(postTypes, eventTypes) {
      await prisma.$transaction([
        ...postTypes.map((type) =>
          prisma.postType.upsert({
            where: { postTypeId: type.postTypeId },
            create: type,
            update: { postType: type.postType },
          }),
        ),
        ...eventTypes.map((type) =>
          prisma.eventType.upsert({
            where: { eventTypeId: type.eventTypeId },
            create: type,
            update: { eventType: type.eventType },
          }),
        ),
      ]);
    },

    listPostTypes: () => prisma.postType.findMany({ orderBy: { postTypeId: 'asc' } }),
    listEventTypes: () => prisma.eventType.findMany({ orderBy: { eventTypeId: 'asc' } }),
    count: () => prisma.post.count(),

    // Every feed page reads its rows here: Prisma Client spends about three milliseconds of CPU on this
    // statement (measured at 20 posts), the driver with the statement prepared under a fifth of that.
    async findByIds(ids, latestComments) {
      if (ids.length === 0) return [];
      let page: string | undefined;
      if (readDriver) {
        const { rows } = await readDriver.queryRaw({
          sql: pageSql,
          args: [[...ids], latestComments],
          argTypes: [
            { scalarType: 'int', arity: 'list' },
            { scalarType: 'int', arity: 'scalar' },
          ],
        });
        page = rows[0]?.[0] as string | undefined;
      } else {
        const [row] = await prisma.$queryRawUnsafe<{ page: string }[]>(pageSql, [...ids], latestComments);
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
          postTypeId: true,
          title: true,
          body: true,
          bodyText: true,
          eventTypeId: true,
          eventLocation: true,
          eventDate: true,
          eventStart: true,
          eventEnd: true,
        },
      });
      return row ? { ...row, eventDate: dayOf(row.eventDate) } : null;
    },

    async create(post, { createdAt = new Date(), reads = 0 } = {}) {
      const row = await prisma.post.create({
        // Both instants equal, so a post (like a comment) reads as edited only once it was.
        data: { ...post, eventDate: dateOf(post.eventDate) ?? null, reads, createdAt, updatedAt: createdAt },
        select: { postId: true },
      });
      return row.postId;
    },

    async update(postId, changes: PostChanges) {
      const { count } = await prisma.post.updateMany({
        where: { postId },
        data: { ...changes, eventDate: dateOf(changes.eventDate), updatedAt: new Date() },
      });
      return count > 0;
    },

    async delete(postId) {
      const { count } = await prisma.post.deleteMany({ where: { postId } });
      return count > 0;
    },

    async findComment(commentId) {
      const row = await prisma.comment.findUnique({ where: { commentId } });
      if (!row) return null;
      const author = await prisma.author.findUnique({ where: { profileId: row.authorId } });
      return {
        ...row,
        author: author
          ? {
              profileId: author.profileId,
              firstName: author.firstName,
              lastName: author.lastName,
              userId: author.userId,
            }
          : null,
      };
    },

    async commentsBefore(postId, before, limit) {
      const rows = await prisma.$queryRaw<CommentJson[]>`
        SELECT c.comment_id AS "commentId", c.post_id AS "postId", c.comment_author AS "authorId",
               c.user_id AS "userId", c.comment_body AS body, c.created_at AS "createdAt", c.updated_at AS "updatedAt",
               ca.first_name AS "firstName", ca.last_name AS "lastName", ca.user_id AS "authorUserId",
               ca.profile_id IS NOT NULL AS "authorKnown"
        FROM ${table('comments')} c
        LEFT JOIN ${table('authors')} ca ON ca.profile_id = c.comment_author
        WHERE c.post_id = ${postId}
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

    async spendCommentAllowance(userId, { burst, intervalMs }) {
      // A generic cell rate: each comment moves paid_until one interval on (from now, once it is past); a comment
      // is allowed while paid_until is at most burst - 1 intervals ahead. The row lock of ON CONFLICT makes
      // concurrent comments of one member, on any replica, count one after the other.
      const tolerance = (burst - 1) * intervalMs;
      const spent = await prisma.$executeRaw`
        INSERT INTO ${table('comment_allowance')} AS a (user_id, paid_until)
        VALUES (${userId}, statement_timestamp() + ${intervalMs}::float8 * interval '1 millisecond')
        ON CONFLICT (user_id) DO UPDATE
          SET paid_until = greatest(a.paid_until, statement_timestamp()) + ${intervalMs}::float8 * interval '1 millisecond'
          WHERE a.paid_until - statement_timestamp() <= ${tolerance}::float8 * interval '1 millisecond'`;
      if (spent > 0) return 0;
      const [row] = await prisma.$queryRaw<{ wait: number }[]>`
        SELECT ceil(extract(epoch FROM paid_until - statement_timestamp()) * 1000)::float8 - ${tolerance}::float8 AS wait
        FROM ${table('comment_allowance')} WHERE user_id = ${userId}`;
      return Math.max(1, row?.wait ?? intervalMs);
    },

    async addComment(comment, { createdAt = new Date(), updatedAt = createdAt } = {}) {
      try {
        const row = await prisma.comment.create({
          data: { ...comment, createdAt, updatedAt },
          select: { commentId: true },
        });
        return row.commentId;
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

    async setLike(postId, userId, liked) {
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
          return row ? { likesCount: row.likes_count } : null;
        });
      } catch (error) {
        // The post was deleted while the like was written.
        if (isKnownError(error, 'P2003') || String(error).includes('likes_post_id_fkey')) return null;
        throw error;
      }
    },

    async likedPostIds(userId) {
      const rows = await prisma.like.findMany({
        where: { userId },
        select: { postId: true },
        orderBy: [{ createdAt: 'desc' }, { postId: 'desc' }],
      });
      return rows.map((row) => row.postId);
    },

    async addRead(postId) {
      const [row] = await prisma.$queryRaw<{ reads: number }[]>`
        UPDATE ${table('posts')} SET reads = reads + 1 WHERE post_id = ${postId} RETURNING reads`;
      return row ? row.reads : null;
    },

    async saveAuthor(author) {
      const stored = await prisma.author.findUnique({ where: { profileId: author.profileId } });
      const issueAreaIds = author.issueAreaIds ? issueIds(author.issueAreaIds) : (stored?.issueAreaIds ?? []);
      const fields = {
        userId: author.userId,
        firstName: author.firstName,
        lastName: author.lastName,
        issueAreaIds,
      };
      await prisma.author.upsert({
        where: { profileId: author.profileId },
        create: { profileId: author.profileId, ...fields },
        update: fields,
      });
      return (
        stored !== null &&
        (stored.firstName !== author.firstName ||
          stored.lastName !== author.lastName ||
          !sameIds(stored.issueAreaIds, issueAreaIds))
      );
    },

    async updateKnownAuthors(authors) {
      if (authors.length === 0) return [];
      const known = new Map(
        (
          await prisma.author.findMany({
            where: { profileId: { in: authors.map((author) => author.profileId) } },
          })
        ).map((row) => [row.profileId, row]),
      );
      const changed: number[] = [];
      const writes = [];
      for (const author of authors) {
        const stored = known.get(author.profileId);
        if (!stored) continue;
        const issueAreaIds = author.issueAreaIds ? issueIds(author.issueAreaIds) : stored.issueAreaIds;
        const shownChanged =
          stored.firstName !== author.firstName ||
          stored.lastName !== author.lastName ||
          !sameIds(stored.issueAreaIds, issueAreaIds);
        if (shownChanged) changed.push(author.profileId);
        if (shownChanged || stored.userId !== author.userId)
          writes.push(
            prisma.author.update({
              where: { profileId: author.profileId },
              data: {
                userId: author.userId,
                firstName: author.firstName,
                lastName: author.lastName,
                issueAreaIds,
              },
            }),
          );
      }
      if (writes.length > 0) await prisma.$transaction(writes);
      return changed;
    },

    async authorIds() {
      const rows = await prisma.author.findMany({
        select: { profileId: true },
        orderBy: { profileId: 'asc' },
      });
      return rows.map((row) => row.profileId);
    },

    async saveOrganizations(organizations) {
      for (let start = 0; start < organizations.length; start += COPY_BATCH) {
        const rows = organizations.slice(start, start + COPY_BATCH).map((organization) => ({
          organization_id: organization.organizationId,
          organization_name: organization.organizationName,
        }));
        await prisma.$executeRaw`
          INSERT INTO ${table('organizations')} (organization_id, organization_name)
          SELECT organization_id, organization_name
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r (organization_id integer, organization_name text)
          ON CONFLICT (organization_id) DO UPDATE SET organization_name = EXCLUDED.organization_name
          WHERE ${table('organizations')}.organization_name IS DISTINCT FROM EXCLUDED.organization_name`;
      }
    },

    async saveDivisions(divisions) {
      for (let start = 0; start < divisions.length; start += COPY_BATCH) {
        const rows = divisions.slice(start, start + COPY_BATCH).map((division) => ({
          division_id: division.divisionId,
          division_name: division.divisionName,
          organization_id: division.organizationId,
        }));
        await prisma.$executeRaw`
          INSERT INTO ${table('divisions')} (division_id, division_name, organization_id)
          SELECT division_id, division_name, organization_id
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            AS r (division_id integer, division_name text, organization_id integer)
          ON CONFLICT (division_id) DO UPDATE
            SET division_name = EXCLUDED.division_name, organization_id = EXCLUDED.organization_id
          WHERE (${table('divisions')}.division_name, ${table('divisions')}.organization_id)
            IS DISTINCT FROM (EXCLUDED.division_name, EXCLUDED.organization_id)`;
      }
    },

    async indexedPosts(ids) {
      if (ids.length === 0) return [];
      return indexedPostsWhere(Prisma.sql`p.post_id = ANY(${[...ids]}::integer[])`);
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
