// The moderation REST paths (docs/product.md#moderation, ADR 0041): members report a post or a
// comment and read what became of their own reports; contributors read the queue, decide, suspend and lift, and
// read the log; a member asks whether they are suspended (answered from this gateway's moderation snapshot,
// without asking a service). The post service owns moderation and refuses again; bodies are checked here for their
// shapes first. Every write is refused for a visitor, then for a suspended member, before its body is read. A
// report and a decision may hide or show a target: they go through the feed's kept pages as any write does, so
// this worker drops them before answering.
import type { MyReport, ReportedTarget } from '@rotunda/protos/post';
import {
  MODERATION_ACTIONS,
  MODERATION_LOG_PAGE,
  MODERATION_REASON_MAX,
  REPORT_NOTE_MAX,
  REPORT_REASONS,
  SUSPENSION_DAYS,
} from '@rotunda/rules';
import { CONTRIBUTOR_ROLE } from '@rotunda/service-kit';
import express, { type Router } from 'express';
import { z } from 'zod';
import { callerOf, refuseSuspended, requireMember, requireRole } from '../auth/middleware.ts';
import type { ModerationSnapshotView } from '../auth/moderation-snapshot.ts';
import type { ServiceClients } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { instant } from '../http/answers.ts';
import { HttpError } from '../http/errors.ts';
import type { FeedPages } from '../http/feed-pages.ts';
import { idField, MAX_ID, pagingParameter, parseBody, parseQuery, requiredText } from '../http/validation.ts';

const TARGET_TYPES = ['post', 'comment'] as const;
const STATUSES = ['open', 'closed'] as const;
/** A member's id as the identity provider gives it (a UUID in both modes; shorter in the demo data). */
const USER_ID_MAX = 255;

const oneOf = (field: string, values: readonly string[]) => `${field} must be one of ${values.join(', ')}`;

const targetType = z.enum(TARGET_TYPES, { error: oneOf('target_type', TARGET_TYPES) });
const daysMessage = `days must be a whole number from ${SUSPENSION_DAYS.min} to ${SUSPENSION_DAYS.max}`;
const reason = requiredText('reason', { max: MODERATION_REASON_MAX });

const bodies = {
  report: z.object({
    target_type: targetType,
    target_id: idField('target_id'),
    reason: z.enum(REPORT_REASONS, { error: oneOf('reason', REPORT_REASONS) }),
    note: z
      .union([z.string(), z.null()], { error: 'note must be text' })
      .optional()
      .transform((value) => (value ?? '').trim())
      .refine(
        (value) => value.length <= REPORT_NOTE_MAX,
        `note must be at most ${REPORT_NOTE_MAX} characters`,
      ),
  }),
  decide: z.object({
    target_type: targetType,
    target_id: idField('target_id'),
    action: z.enum(MODERATION_ACTIONS, { error: oneOf('action', MODERATION_ACTIONS) }),
    reason,
  }),
  suspend: z.object({
    user_id: requiredText('user_id', { max: USER_ID_MAX }),
    // A number, or its digits as a select sends them.
    days: z
      .union(
        [
          z.number(),
          z
            .string()
            .trim()
            .regex(/^\d{1,3}$/)
            .transform(Number),
        ],
        {
          error: daysMessage,
        },
      )
      .refine(
        (value) => Number.isInteger(value) && value >= SUSPENSION_DAYS.min && value <= SUSPENSION_DAYS.max,
        daysMessage,
      ),
    reason,
  }),
};

const queries = {
  reports: z.object({
    status: z.enum(STATUSES, { error: oneOf('status', STATUSES) }).optional(),
  }),
  log: z.object({
    before: pagingParameter('before', 1, MAX_ID),
    limit: pagingParameter('limit', 1, MODERATION_LOG_PAGE.max),
  }),
};

function reportedTargetJson(target: ReportedTarget) {
  return {
    target_type: target.target_type,
    target_id: target.target_id,
    post_id: target.post_id,
    reports_count: target.reports_count,
    reasons: target.reasons,
    state: target.state,
    automatic: target.automatic,
    first_reported_at: instant(target.first_reported_at),
    excerpt: target.excerpt,
    notes: target.notes,
    author: {
      user_id: target.author?.user_id ?? '',
      profile_id: target.author?.profile_id ?? null,
      first_name: target.author?.first_name ?? '',
      last_name: target.author?.last_name ?? '',
    },
  };
}

function myReportJson(report: MyReport) {
  return {
    report_id: report.report_id,
    target_type: report.target_type,
    target_id: report.target_id,
    post_id: report.post_id,
    reason: report.reason,
    note: report.note,
    created_at: instant(report.created_at),
    status: report.status,
    outcome: report.outcome,
    decided_at: instant(report.decided_at),
    excerpt: report.excerpt,
  };
}

export function moderationRouter(
  clients: Pick<ServiceClients, 'post' | 'deadlineMs'>,
  pages: FeedPages,
  snapshot: ModerationSnapshotView,
): Router {
  const router = express.Router();
  const { post } = clients;
  const rpc = serviceCaller(clients, 'post');
  const contributor = [requireMember, requireRole(CONTRIBUTOR_ROLE)];
  const writer = [requireMember, refuseSuspended];
  const contributorWriter = [...writer, requireRole(CONTRIBUTOR_ROLE)];

  router.post('/reports', ...writer, async (req, res) => {
    const body = parseBody(bodies.report, req);
    const answer = await pages.write(req, res, post.addReport, body);
    res.status(201).json({ report_id: answer.report_id });
  });

  // The reporter's notice of each outcome (ADR 0041), theirs alone: never kept by a shared cache.
  router.get('/reports/mine', requireMember, async (req, res) => {
    const { reports } = await rpc(req, post.listMyReports, {});
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(reports.map(myReportJson));
  });

  router.get('/reports', ...contributor, async (req, res) => {
    const { status = 'open' } = parseQuery(queries.reports, req.query);
    const { targets } = await rpc(req, post.listReports, { status });
    res.json(targets.map(reportedTargetJson));
  });

  router.post('/reports/decide', ...contributorWriter, async (req, res) => {
    const body = parseBody(bodies.decide, req);
    const answer = await pages.write(req, res, post.decideReports, body);
    res.json({ state: answer.state, closed_reports: answer.closed_reports });
  });

  router.post('/moderation/suspensions', ...contributorWriter, async (req, res) => {
    const body = parseBody(bodies.suspend, req);
    const suspension = await rpc(req, post.suspendMember, body);
    res.status(201).json({
      user_id: suspension.user_id,
      until: instant(suspension.until),
      reason: suspension.reason,
    });
  });

  router.delete('/moderation/suspensions/:user_id', ...contributorWriter, async (req, res) => {
    const given = req.params.user_id;
    const user_id = typeof given === 'string' ? given.trim() : '';
    if (!user_id || user_id.length > USER_ID_MAX) throw new HttpError(404, 'No running suspension');
    await rpc(req, post.liftSuspension, { user_id });
    res.status(204).end();
  });

  router.get('/moderation/log', ...contributor, async (req, res) => {
    const page = parseQuery(queries.log, req.query);
    const { entries } = await rpc(req, post.listModerationLog, {
      before: page.before ?? 0,
      limit: page.limit ?? MODERATION_LOG_PAGE.default,
    });
    res.json(
      entries.map((entry) => ({
        id: entry.id,
        at: instant(entry.at),
        actor: {
          user_id: entry.actor_user_id,
          first_name: entry.actor_first_name,
          last_name: entry.actor_last_name,
        },
        action: entry.action,
        target_type: entry.target_type || null,
        target_id: entry.target_type ? entry.target_id : null,
        user_id: entry.user_id,
        reason: entry.reason,
      })),
    );
  });

  // The shell's notice: what this gateway knows (the post service's snapshot, a second old at most).
  router.get('/moderation/me', requireMember, (req, res) => {
    const suspension = snapshot.suspensionOf(callerOf(req).userId);
    res.setHeader('Cache-Control', 'private, no-store');
    res.json({
      suspension: suspension ? { until: suspension.until.toISOString(), reason: suspension.reason } : null,
    });
  });

  return router;
}
