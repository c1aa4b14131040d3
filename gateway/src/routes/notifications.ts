// The /api/notifications/* REST paths (docs/product.md#notifications, ADR 0042): a member's
// notifications a page at a time with their unread count, marking them read, the live count as server-sent events,
// and their email preferences; and the one-click unsubscribe (RFC 8058) every mail links to, which needs no
// sign-in: the token in its address is the credential. Reading, marking read and choosing what is mailed are a
// member's own business, so a suspension refuses none of them. The notification service owns the rules and
// checks again; shapes are checked here first.
import type { Notification, Preferences } from '@rotunda/protos/notification';
import { EMAIL_DIGESTS, EMAIL_NOW_KINDS, MARK_READ_MAX, NOTIFICATIONS_PAGE } from '@rotunda/rules';
import express, { type Router } from 'express';
import { z } from 'zod';
import { requireMember } from '../auth/middleware.ts';
import type { ServiceClients } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { instant } from '../http/answers.ts';
import type { UnreadStreams } from '../http/unread-streams.ts';
import { MAX_ID, pagingParameter, parseBody, parseQuery } from '../http/validation.ts';

/** Where a mail's unsubscribe link lands in a browser: the shell's page, which asks before it POSTs. */
export const UNSUBSCRIBE_PAGE = '/unsubscribe';
/** Unsubscribe tokens are opaque random text; anything longer is no token. */
const TOKEN_MAX = 256;

export const NOTIFICATION_MESSAGES = {
  readOneOf: `Send either ids (at most ${MARK_READ_MAX}) or all: true.`,
  ids: `ids must be a list of at most ${MARK_READ_MAX} notification ids (whole numbers).`,
  all: 'all must be true.',
  noToken: 'This unsubscribe link is incomplete: open the link from the email again.',
  emailDigest: `email_digest must be one of ${EMAIL_DIGESTS.join(', ')}`,
  emailNow: `email_now must say true or false for each of ${EMAIL_NOW_KINDS.join(', ')}`,
} as const;

const notificationId = z
  .number({ error: NOTIFICATION_MESSAGES.ids })
  .refine((value) => Number.isSafeInteger(value) && value >= 1, NOTIFICATION_MESSAGES.ids);

const bodies = {
  read: z
    .object({
      ids: z
        .array(notificationId, { error: NOTIFICATION_MESSAGES.ids })
        .max(MARK_READ_MAX, NOTIFICATION_MESSAGES.ids)
        .optional(),
      all: z.literal(true, { error: NOTIFICATION_MESSAGES.all }).optional(),
    })
    .refine((body) => (body.ids === undefined) !== (body.all === undefined), NOTIFICATION_MESSAGES.readOneOf),
  preferences: z.object({
    email_digest: z.enum(EMAIL_DIGESTS, { error: NOTIFICATION_MESSAGES.emailDigest }),
    email_now: z.object(
      Object.fromEntries(
        EMAIL_NOW_KINDS.map((kind) => [kind, z.boolean({ error: NOTIFICATION_MESSAGES.emailNow })]),
      ) as Record<(typeof EMAIL_NOW_KINDS)[number], z.ZodBoolean>,
      { error: NOTIFICATION_MESSAGES.emailNow },
    ),
  }),
};

const queries = {
  list: z.object({
    before: pagingParameter('before', 1, MAX_ID),
    limit: pagingParameter('limit', 1, NOTIFICATIONS_PAGE.max),
  }),
  unsubscribe: z.object({
    token: z
      .string({ error: NOTIFICATION_MESSAGES.noToken })
      .trim()
      .min(1, NOTIFICATION_MESSAGES.noToken)
      .max(TOKEN_MAX, NOTIFICATION_MESSAGES.noToken),
  }),
};

export function notificationJson(notification: Notification) {
  const { actor, target } = notification;
  return {
    id: notification.id,
    kind: notification.kind,
    created_at: instant(notification.created_at),
    read: notification.read,
    actor: actor
      ? { profile_id: actor.profile_id, first_name: actor.first_name, last_name: actor.last_name }
      : null,
    target: {
      type: target?.type ?? '',
      id: target?.id ?? 0,
      // A comment's post, which the link opens; nothing for a post or a profile.
      ...(target?.post_id ? { post_id: target.post_id } : {}),
    },
    text: notification.text,
  };
}

const preferencesJson = (preferences: Preferences) => ({
  email_digest: preferences.email_digest,
  email_now: Object.fromEntries(
    EMAIL_NOW_KINDS.map((kind) => [kind, preferences.email_now?.[kind] ?? false]),
  ),
});

export function notificationsRouter(
  clients: Pick<ServiceClients, 'notification' | 'deadlineMs'>,
  streams: UnreadStreams,
): Router {
  const router = express.Router();
  const { notification } = clients;
  const rpc = serviceCaller(clients, 'notification');

  // No sign-in: a mail provider's one-click POST (RFC 8058) carries `List-Unsubscribe=One-Click` form-encoded, or
  // nothing; the token is the credential. Tokens travel in headers only, so a cross-site POST carries no member's
  // authority and needs no origin check here.
  router.post('/unsubscribe', async (req, res) => {
    const { token } = parseQuery(queries.unsubscribe, req.query);
    await rpc(req, notification.unsubscribe, { token });
    res.setHeader('Cache-Control', 'no-store');
    res.json({ unsubscribed: true });
  });

  // A link opened in a browser (or fetched by a mail scanner) never unsubscribes: it lands on the shell's page,
  // whose button makes the POST.
  router.get('/unsubscribe', (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token.slice(0, TOKEN_MAX) : '';
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, token ? `${UNSUBSCRIBE_PAGE}?token=${encodeURIComponent(token)}` : UNSUBSCRIBE_PAGE);
  });

  router.use(requireMember);

  router.get('/', async (req, res) => {
    // `?before=&limit=` as a form leaves them: empty is not given.
    const given = Object.fromEntries(Object.entries(req.query).filter(([, value]) => value !== ''));
    const query = parseQuery(queries.list, given);
    const page = await rpc(req, notification.listNotifications, {
      before: query.before ?? 0,
      limit: query.limit ?? NOTIFICATIONS_PAGE.default,
    });
    res.setHeader('Cache-Control', 'private, no-store');
    res.json({ items: page.items.map(notificationJson), unread_count: page.unread_count });
  });

  router.post('/read', async (req, res) => {
    const body = parseBody(bodies.read, req);
    const answer = await rpc(req, notification.markRead, { ids: body.ids ?? [], all: body.all === true });
    res.json({ unread_count: answer.unread_count });
  });

  router.get('/stream', (req, res) => streams.open(req, res));

  router.get('/preferences', async (req, res) => {
    const preferences = await rpc(req, notification.getPreferences, {});
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(preferencesJson(preferences));
  });

  router.put('/preferences', async (req, res) => {
    const preferences = parseBody(bodies.preferences, req);
    res.json(preferencesJson(await rpc(req, notification.setPreferences, { preferences })));
  });

  return router;
}
