// Moderation in the post schema through Prisma (ADR 0041): reports (at most one open per reporter and target, by
// a partial unique index), the targets' moderation columns changed under their row lock together with the reports
// they close and the log entry, suspensions, and the queue and log read with names from the read copy of authors.
// Raw SQL where a write must not touch updated_at (a moderated post does not read as edited).
import type { SearchOutbox } from '@rotunda/service-kit';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type {
  ModerationLogEntry,
  ModerationTarget,
  MyReportRow,
  ReportedTargetRow,
  TargetRef,
} from '../domain/moderation-records.ts';
import type { ModerationStore } from '../domain/ports.ts';
import type { ModerationMark, ModerationState } from '../domain/visibility.ts';
import { spendAllowance } from './prisma-comments.ts';
import { moderationOf, recordAll, type SchemaTables } from './prisma-sql.ts';

type Tx = Prisma.TransactionClient;

interface TargetRow {
  userId: string;
  postId: number;
  postTitle: string;
  modState: string;
  modReason: string | null;
  modAutomatic: boolean;
  postUserId: string;
  postState: string;
}

export function prismaModerationStore(
  prisma: PrismaClient,
  { table }: SchemaTables,
  outbox: SearchOutbox,
): ModerationStore {
  /** The target's row (locked till the transaction ends with `lock`), with the post it is or is on. */
  const targetRow = async (db: Tx | PrismaClient, { type, id }: TargetRef, lock: boolean) => {
    const forUpdate = lock ? Prisma.sql`FOR UPDATE OF t` : Prisma.empty;
    const [row] =
      type === 'post'
        ? await db.$queryRaw<TargetRow[]>`
            SELECT t.user_id AS "userId", t.post_id AS "postId", t.post_title AS "postTitle",
                   t.moderation_state AS "modState",
                   t.moderation_reason AS "modReason", t.moderation_automatic AS "modAutomatic",
                   t.user_id AS "postUserId", t.moderation_state AS "postState"
            FROM ${table('posts')} t WHERE t.post_id = ${id} ${forUpdate}`
        : await db.$queryRaw<TargetRow[]>`
            SELECT t.user_id AS "userId", t.post_id AS "postId", p.post_title AS "postTitle",
                   t.moderation_state AS "modState",
                   t.moderation_reason AS "modReason", t.moderation_automatic AS "modAutomatic",
                   p.user_id AS "postUserId", p.moderation_state AS "postState"
            FROM ${table('comments')} t JOIN ${table('posts')} p ON p.post_id = t.post_id
            WHERE t.comment_id = ${id} ${forUpdate}`;
    return row;
  };

  const setModeration = async (tx: Tx, { type, id }: TargetRef, mark: ModerationMark) => {
    if (type === 'comment') {
      await tx.$executeRaw`
        UPDATE ${table('comments')} SET moderation_state = ${mark.state}, moderation_reason = ${mark.reason},
          moderation_automatic = ${mark.automatic} WHERE comment_id = ${id}`;
      return;
    }
    await tx.$executeRaw`
      UPDATE ${table('posts')} SET moderation_state = ${mark.state}, moderation_reason = ${mark.reason},
        moderation_automatic = ${mark.automatic} WHERE post_id = ${id}`;
    // Who may find the post in search follows its state.
    await outbox.record(tx, [id]);
  };

  const log = (
    tx: Tx,
    entry: Pick<
      ModerationLogEntry,
      'actorUserId' | 'action' | 'targetType' | 'targetId' | 'userId' | 'reason'
    >,
  ) => tx.moderationLogEntry.create({ data: entry, select: { id: true } });

  const now = () => new Date();

  return {
    async findTarget(ref): Promise<ModerationTarget | null> {
      const row = await targetRow(prisma, ref, false);
      if (!row) return null;
      return {
        ...ref,
        userId: row.userId,
        moderation: moderationOf(row),
        post: { postId: row.postId, userId: row.postUserId, state: row.postState as ModerationState },
      };
    },

    async openReportId({ type, id }, reporterId) {
      const row = await prisma.report.findFirst({
        where: { targetType: type, targetId: id, reporterId, closedAt: null },
        select: { reportId: true },
      });
      return row?.reportId ?? null;
    },

    spendReportAllowance: (userId, allowance) =>
      spendAllowance(prisma, table('report_allowance'), userId, allowance),

    addReport(report, autoHide, onHidden) {
      return prisma.$transaction(async (tx) => {
        // The target's row lock makes reports of one target count one after the other, so exactly one of them
        // sees the third reporter and hides it.
        const target = await targetRow(tx, report, true);
        if (!target) return null;
        const [inserted] = await tx.$queryRaw<{ reportId: number }[]>`
          INSERT INTO ${table('reports')} AS r (target_type, target_id, reporter_id, reason, note)
          VALUES (${report.type}, ${report.id}, ${report.reporterId}, ${report.reason}, ${report.note})
          ON CONFLICT (target_type, target_id, reporter_id) WHERE closed_at IS NULL
            DO UPDATE SET reporter_id = r.reporter_id
          RETURNING report_id AS "reportId"`;
        if (!inserted) throw new Error('reports: the insert answered no row');
        const [counted] = await tx.$queryRaw<{ reporters: number }[]>`
          SELECT count(DISTINCT reporter_id)::int AS reporters FROM ${table('reports')}
          WHERE target_type = ${report.type} AND target_id = ${report.id} AND closed_at IS NULL`;
        const hidden = target.modState === 'visible' && (counted?.reporters ?? 0) >= autoHide.after;
        if (hidden) {
          await setModeration(tx, report, { state: 'hidden', reason: autoHide.reason, automatic: true });
          await log(tx, {
            actorUserId: '',
            action: 'auto_hide',
            targetType: report.type,
            targetId: report.id,
            userId: target.userId,
            reason: autoHide.reason,
          });
          if (onHidden)
            await recordAll(
              tx,
              onHidden({
                authorUserId: target.userId,
                postId: target.postId,
                postTitle: target.postTitle,
                reporterIds: [],
              }),
            );
        }
        return { reportId: inserted.reportId, hidden };
      });
    },

    async reportedTargets(status, limit) {
      const inStatus =
        status === 'open'
          ? Prisma.sql`r.closed_at IS NULL`
          : Prisma.sql`r.closed_at IS NOT NULL AND NOT EXISTS (
              SELECT 1 FROM ${table('reports')} o
              WHERE o.target_type = r.target_type AND o.target_id = r.target_id AND o.closed_at IS NULL)`;
      const rows = await prisma.$queryRaw<
        (Omit<ReportedTargetRow, 'moderation' | 'author' | 'type'> & {
          type: string;
          modState: string;
          modReason: string | null;
          modAutomatic: boolean;
          userId: string;
          profileId: number;
          firstName: string | null;
          lastName: string | null;
        })[]
      >`
        WITH r AS (SELECT * FROM ${table('reports')} r WHERE ${inStatus}),
        counted AS (
          SELECT target_type, target_id, count(DISTINCT reporter_id)::int AS reporters,
                 min(created_at) AS first_at,
                 coalesce(array_agg(note ORDER BY created_at DESC, report_id DESC) FILTER (WHERE note <> ''),
                          '{}') AS notes
          FROM r GROUP BY target_type, target_id),
        reasons AS (
          SELECT target_type, target_id, array_agg(reason ORDER BY given DESC, reason) AS reasons
          FROM (SELECT target_type, target_id, reason, count(*) AS given FROM r
                GROUP BY target_type, target_id, reason) g
          GROUP BY target_type, target_id)
        SELECT t.target_type AS type, t.target_id AS id, t.reporters AS "reportsCount", s.reasons,
               t.first_at AS "firstReportedAt", t.notes,
               coalesce(p.post_title, c.comment_body) AS text,
               coalesce(p.user_id, c.user_id) AS "userId",
               coalesce(p.post_author, c.comment_author) AS "profileId",
               coalesce(p.post_id, c.post_id) AS "postId",
               coalesce(p.moderation_state, c.moderation_state) AS "modState",
               coalesce(p.moderation_reason, c.moderation_reason) AS "modReason",
               coalesce(p.moderation_automatic, c.moderation_automatic) AS "modAutomatic",
               a.first_name AS "firstName", a.last_name AS "lastName"
        FROM counted t
        JOIN reasons s ON s.target_type = t.target_type AND s.target_id = t.target_id
        LEFT JOIN ${table('posts')} p ON t.target_type = 'post' AND p.post_id = t.target_id
        LEFT JOIN ${table('comments')} c ON t.target_type = 'comment' AND c.comment_id = t.target_id
        LEFT JOIN ${table('authors')} a ON a.profile_id = coalesce(p.post_author, c.comment_author)
        WHERE p.post_id IS NOT NULL OR c.comment_id IS NOT NULL
        ORDER BY t.reporters DESC, t.first_at, t.target_type DESC, t.target_id
        LIMIT ${limit}`;
      return rows.map(
        ({ type, modState, modReason, modAutomatic, userId, profileId, firstName, lastName, ...row }) => ({
          ...row,
          type: type as TargetRef['type'],
          moderation: moderationOf({ modState, modReason, modAutomatic }),
          author: { userId, profileId, firstName, lastName },
        }),
      );
    },

    async reportsBy(reporterId, limit) {
      const rows = await prisma.$queryRaw<(Omit<MyReportRow, 'type'> & { type: string })[]>`
        SELECT r.report_id AS "reportId", r.target_type AS type, r.target_id AS id,
               coalesce(p.post_id, c.post_id) AS "postId", r.reason, r.note, r.created_at AS "createdAt",
               r.closed_at AS "closedAt", r.outcome, coalesce(p.post_title, c.comment_body) AS text,
               coalesce(p.moderation_state, c.moderation_state) AS state,
               coalesce(p.moderation_state, cp.moderation_state) AS "postState"
        FROM ${table('reports')} r
        LEFT JOIN ${table('posts')} p ON r.target_type = 'post' AND p.post_id = r.target_id
        LEFT JOIN ${table('comments')} c ON r.target_type = 'comment' AND c.comment_id = r.target_id
        LEFT JOIN ${table('posts')} cp ON cp.post_id = c.post_id
        WHERE r.reporter_id = ${reporterId} AND (p.post_id IS NOT NULL OR c.comment_id IS NOT NULL)
        ORDER BY r.created_at DESC, r.report_id DESC
        LIMIT ${limit}`;
      return rows.map(({ type, ...row }) => ({ ...row, type: type as TargetRef['type'] }));
    },

    decide(ref, next, entry, events) {
      return prisma.$transaction(async (tx) => {
        const target = await targetRow(tx, ref, true);
        if (!target) return null;
        const moderation = next(moderationOf(target));
        await setModeration(tx, ref, moderation);
        const closed = await tx.$queryRaw<{ reporterId: string }[]>`
          UPDATE ${table('reports')} SET closed_at = ${now()}, outcome = ${entry.action}
          WHERE target_type = ${ref.type} AND target_id = ${ref.id} AND closed_at IS NULL
          RETURNING reporter_id AS "reporterId"`;
        const closedReports = closed.length;
        await log(tx, {
          actorUserId: entry.actorUserId,
          action: entry.action as ModerationLogEntry['action'],
          targetType: ref.type,
          targetId: ref.id,
          userId: target.userId,
          reason: entry.reason,
        });
        if (events)
          await recordAll(
            tx,
            events({
              authorUserId: target.userId,
              postId: target.postId,
              postTitle: target.postTitle,
              reporterIds: [...new Set(closed.map((row) => row.reporterId))],
            }),
          );
        return { moderation, closedReports, postId: target.postId };
      });
    },

    runningSuspension: (userId) => prisma.suspension.findFirst({ where: { userId, until: { gt: now() } } }),

    runningSuspensions: () =>
      prisma.suspension.findMany({
        where: { until: { gt: now() } },
        orderBy: [{ until: 'asc' }, { userId: 'asc' }],
      }),

    async suspend(suspension) {
      await prisma.$transaction(async (tx) => {
        await tx.suspension.upsert({
          where: { userId: suspension.userId },
          create: suspension,
          update: suspension,
        });
        await log(tx, {
          actorUserId: suspension.suspendedBy,
          action: 'suspend',
          targetType: '',
          targetId: 0,
          userId: suspension.userId,
          reason: suspension.reason,
        });
      });
    },

    lift(userId, actorUserId) {
      return prisma.$transaction(async (tx) => {
        const { count } = await tx.suspension.deleteMany({ where: { userId, until: { gt: now() } } });
        if (count === 0) return false;
        await log(tx, { actorUserId, action: 'lift', targetType: '', targetId: 0, userId, reason: '' });
        return true;
      });
    },

    async hiddenAuthors() {
      const rows = await prisma.$queryRaw<{ userId: string }[]>`
        SELECT user_id AS "userId" FROM ${table('posts')} WHERE moderation_state = 'hidden'
        UNION
        SELECT user_id FROM ${table('comments')} WHERE moderation_state = 'hidden'
        ORDER BY 1`;
      return rows.map((row) => row.userId);
    },

    async moderationLog(before, limit) {
      return prisma.$queryRaw<ModerationLogEntry[]>`
        SELECT l.id, l.at, l.actor_user_id AS "actorUserId", a.first_name AS "actorFirstName",
               a.last_name AS "actorLastName", l.action, l.target_type AS "targetType", l.target_id AS "targetId",
               l.user_id AS "userId", l.reason
        FROM ${table('moderation_log')} l
        LEFT JOIN LATERAL (
          SELECT first_name, last_name FROM ${table('authors')}
          WHERE l.actor_user_id <> '' AND user_id = l.actor_user_id ORDER BY profile_id LIMIT 1) a ON true
        WHERE ${before} = 0 OR l.id < ${before}
        ORDER BY l.id DESC
        LIMIT ${limit}`;
    },
  };
}
