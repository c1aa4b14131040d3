// The /api/me/* REST paths (docs/product.md#your-data, ADR 0042): "Download my data" joins what
// the auth, profile, post and notification services each hold about the member (their ExportMine, asked at once)
// into one JSON file, or answers 503 naming the service that failed: never a partial file that looks complete.
// "Delete my account" checks the password again in the auth service, which deletes the account and records the
// deletion the other services act on; this gateway ends the member's session and live streams at once rather
// than at its next poll. Both are a member's rights, which a suspension does not take away.
import express, { type Router } from 'express';
import { z } from 'zod';
import type { EndedSessions } from '../auth/ended-sessions.ts';
import { callerOf, requireMember } from '../auth/middleware.ts';
import { ServiceCallError, type ServiceClients, type ServiceName } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { attachmentDisposition } from '../http/attachment.ts';
import { HttpError, httpErrorOf } from '../http/errors.ts';
import type { UnreadStreams } from '../http/unread-streams.ts';
import { parseBody, requiredText } from '../http/validation.ts';

export const EXPORT_FILE_NAME = 'rotunda-my-data.json';
/** Exports one member may download an hour, per gateway process: each asks four services for everything. */
export const EXPORTS_PER_HOUR = 5;
const HOUR_MS = 60 * 60 * 1000;
/** Gathering a long-standing member's posts and notifications may take longer than an ordinary call. */
const EXPORT_DEADLINE_MS = 30_000;
/** Passwords are checked by the auth service; this only keeps an absurd body from being forwarded. */
const PASSWORD_MAX = 1024;

/** The file's keys, in this order (docs/api.md), and what each is when its service has none. */
const EXPORT_KEYS = {
  account: null,
  profile: null,
  jobs: [],
  issue_areas: [],
  claims: [],
  reports: [],
  posts: [],
  comments: [],
  likes: [],
  notifications: [],
  preferences: null,
} as const satisfies Record<string, null | readonly never[]>;

export const ME_MESSAGES = {
  password: 'Enter your password to delete your account.',
  tooManyExports: `You may download your data ${EXPORTS_PER_HOUR} times an hour. Please try again later.`,
  exportFailed: (service: ServiceName) =>
    `Your data could not be gathered: the ${service} service did not answer. Nothing was downloaded; please try again shortly.`,
} as const;

const deleteBody = z.object({
  password: requiredText('password', { trim: false, max: PASSWORD_MAX, missing: ME_MESSAGES.password }),
});

/** Per member, the moments of their exports within the last hour (this process's). */
function exportAllowance(now = Date.now) {
  const taken = new Map<string, number[]>();
  return (userId: string): number | undefined => {
    const at = now();
    const recent = (taken.get(userId) ?? []).filter((moment) => moment > at - HOUR_MS);
    if (recent.length >= EXPORTS_PER_HOUR) {
      taken.set(userId, recent);
      return Math.max(1, Math.ceil(((recent[0] as number) + HOUR_MS - at) / 1000));
    }
    recent.push(at);
    taken.set(userId, recent);
    // Members who stopped exporting are forgotten once their hour has passed.
    for (const [member, moments] of taken) if ((moments.at(-1) ?? 0) <= at - HOUR_MS) taken.delete(member);
    return undefined;
  };
}

export function meRouter(
  clients: Pick<ServiceClients, 'auth' | 'profile' | 'post' | 'notification' | 'deadlineMs'>,
  streams: Pick<UnreadStreams, 'endMember'>,
  endedSessions: Pick<EndedSessions, 'end'> | undefined,
  /** The deadline of calls that wait on Keycloak checking a password (config PASSWORD_DEADLINE_MS, ADR 0062). */
  passwordDeadlineMs: number,
): Router {
  const router = express.Router();
  const asked = {
    auth: serviceCaller(clients, 'auth'),
    profile: serviceCaller(clients, 'profile'),
    post: serviceCaller(clients, 'post'),
    notification: serviceCaller(clients, 'notification'),
  };
  const exportsLeft = exportAllowance();

  router.use(requireMember);

  router.get('/export', async (req, res) => {
    const retryAfter = exportsLeft(callerOf(req).userId);
    if (retryAfter !== undefined) throw new HttpError(429, ME_MESSAGES.tooManyExports, retryAfter);
    const parts = await Promise.all([
      asked.auth(req, clients.auth.exportMine, {}, EXPORT_DEADLINE_MS),
      asked.profile(req, clients.profile.exportMine, {}, EXPORT_DEADLINE_MS),
      asked.post(req, clients.post.exportMine, {}, EXPORT_DEADLINE_MS),
      asked.notification(req, clients.notification.exportMine, {}, EXPORT_DEADLINE_MS),
    ]).catch((error: unknown) => {
      if (!(error instanceof ServiceCallError)) throw error;
      // A refusal of the member (a session that ended meanwhile) is theirs to see; anything else is an outage.
      const answer = httpErrorOf(error);
      if (answer.status < 500) throw error;
      req.log.warn({ err: error }, 'an export could not be gathered');
      throw new HttpError(503, ME_MESSAGES.exportFailed(error.service), 30);
    });
    const held: Record<string, unknown> = Object.assign(
      {},
      ...parts.map((part) => JSON.parse(part.json) as Record<string, unknown>),
    );
    const file = Object.fromEntries(
      Object.entries(EXPORT_KEYS).map(([key, none]) => [key, held[key] ?? none]),
    );
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Disposition', attachmentDisposition(EXPORT_FILE_NAME));
    res.setHeader('Cache-Control', 'no-store');
    res.send(`${JSON.stringify(file, null, 2)}\n`);
  });

  router.post('/delete', async (req, res) => {
    const { password } = parseBody(deleteBody, req);
    const caller = callerOf(req);
    // The password is checked again, as slowly as at sign-in: a deletion done after 3 s must not answer 504.
    await asked.auth(
      req,
      clients.auth.deleteAccount,
      { password, client_ip: req.ip ?? '' },
      passwordDeadlineMs,
    );
    // The auth service ended every session of the account; this gateway refuses this one's tokens now, and the
    // other gateways (and this one, for the other sessions) learn of them at their next poll.
    if (req.sessionId && endedSessions)
      endedSessions.end(req.sessionId, req.tokenExpiresAt ?? Date.now() + HOUR_MS);
    streams.endMember(caller.userId);
    req.log.info({ deletedUser: caller.userId }, 'account deleted at the member’s request');
    res.setHeader('Cache-Control', 'no-store');
    res.json({ deleted: true });
  });

  return router;
}
