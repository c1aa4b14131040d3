// The access administration REST paths (DESIGN.md "Community contracts — Access administration"): administrators
// (realm role 'admin') read and change the lists of who may register, grant and take away roles, and read the log
// of every such change. Bodies are checked here for their shapes with the shared rules; the auth service owns the
// lists, checks the caller's role and the values again, and logs each change. Every write is refused for a
// visitor, then for a suspended member, before its body is read.
import type { AccessLists } from '@rotunda/protos/auth';
import { ACCESS_LISTS, ADMIN_LOG_PAGE, ADMIN_ROLE, ADMIN_ROLES, checkAccessValue } from '@rotunda/rules';
import express, { type Router } from 'express';
import { z } from 'zod';
import { refuseSuspended, requireMember, requireRole } from '../auth/middleware.ts';
import type { ServiceClients } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { instant } from '../http/answers.ts';
import { MAX_ID, pagingParameter, parseBody, parseQuery, requiredText } from '../http/validation.ts';

/** The longest email address; a domain is shorter still (253). */
const VALUE_MAX = 254;

const oneOf = (field: string, values: readonly string[]) => `${field} must be one of ${values.join(', ')}`;

const bodies = {
  change: z
    .object({
      list: z.enum(ACCESS_LISTS, { error: oneOf('list', ACCESS_LISTS) }),
      value: requiredText('value', { max: VALUE_MAX }),
    })
    // A domain list holds host names, the others email addresses: each told in the screen's words.
    .transform((body, context) => {
      const checked = checkAccessValue(body.list, body.value);
      if ('value' in checked) return { list: body.list, value: checked.value };
      context.addIssue({ code: 'custom', message: checked.problem });
      return z.NEVER;
    }),
  role: z.object({
    email: requiredText('email', { max: VALUE_MAX }).transform((email, context) => {
      const checked = checkAccessValue('emails', email);
      if ('value' in checked) return checked.value;
      context.addIssue({ code: 'custom', message: checked.problem });
      return z.NEVER;
    }),
    role: z.enum(ADMIN_ROLES, { error: oneOf('role', ADMIN_ROLES) }),
    grant: z.boolean({ error: 'grant must be true or false' }),
  }),
};

const queries = {
  log: z.object({
    before: pagingParameter('before', 1, MAX_ID),
    limit: pagingParameter('limit', 1, ADMIN_LOG_PAGE.max),
  }),
};

const listsJson = (lists: AccessLists) => ({
  domains: lists.domains,
  emails: lists.emails,
  beta_emails: lists.beta_emails,
});

export function adminRouter(clients: Pick<ServiceClients, 'auth' | 'deadlineMs'>): Router {
  const router = express.Router();
  const { auth } = clients;
  const rpc = serviceCaller(clients, 'auth');
  const admin = [requireMember, requireRole(ADMIN_ROLE)];
  const adminWriter = [requireMember, refuseSuspended, requireRole(ADMIN_ROLE)];

  // The lists name people: never kept by any cache.
  router.get('/access', ...admin, async (req, res) => {
    const lists = await rpc(req, auth.getAccessLists, {});
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(listsJson(lists));
  });

  router.post('/access', ...adminWriter, async (req, res) => {
    const body = parseBody(bodies.change, req);
    const lists = await rpc(req, auth.changeAccessList, { ...body, add: true });
    res.json(listsJson(lists));
  });

  router.delete('/access', ...adminWriter, async (req, res) => {
    const body = parseBody(bodies.change, req);
    const lists = await rpc(req, auth.changeAccessList, { ...body, add: false });
    res.json(listsJson(lists));
  });

  router.post('/roles', ...adminWriter, async (req, res) => {
    const body = parseBody(bodies.role, req);
    await rpc(req, auth.setRole, body);
    res.json({ email: body.email, role: body.role, grant: body.grant });
  });

  router.get('/log', ...admin, async (req, res) => {
    const page = parseQuery(queries.log, req.query);
    const { entries } = await rpc(req, auth.listAdminLog, {
      before: page.before ?? 0,
      limit: page.limit ?? ADMIN_LOG_PAGE.default,
    });
    res.setHeader('Cache-Control', 'private, no-store');
    res.json(
      entries.map((entry) => ({
        id: entry.id,
        at: instant(entry.at),
        actor: { user_id: entry.actor_user_id || null, email: entry.actor_email },
        action: entry.action,
        subject: entry.subject,
        value: entry.value,
      })),
    );
  });

  return router;
}
