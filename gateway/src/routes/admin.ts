// The access administration REST paths (docs/product.md#access-administration): administrators
// (realm role 'admin') read and change the lists of who may register, grant and take away roles, and read the log
// of every such change. Bodies are checked here for their shapes with the shared rules; the auth service owns the
// lists, checks the caller's role and the values again, and logs each change. Every write is refused for a
// visitor, then for a suspended member, before its body is read. In Keycloak mode administrators also register
// and remove the agencies whose own identity providers sign their staff in (docs/agency-sign-in.md).
import type { AccessLists, Agency } from '@rotunda/protos/auth';
import {
  ACCESS_LISTS,
  ADMIN_LOG_PAGE,
  ADMIN_ROLE,
  ADMIN_ROLES,
  AGENCY_LIMITS,
  AGENCY_MESSAGES,
  AGENCY_PROTOCOLS,
  checkAccessValue,
} from '@rotunda/rules';
import express, { type Router } from 'express';
import { z } from 'zod';
import { refuseSuspended, requireMember, requireRole } from '../auth/middleware.ts';
import type { ServiceClients } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { instant } from '../http/answers.ts';
import { HttpError } from '../http/errors.ts';
import { MAX_ID, pagingParameter, parseBody, parseQuery, requiredText } from '../http/validation.ts';

/** The longest email address; a domain is shorter still (253). */
const VALUE_MAX = 254;

const oneOf = (field: string, values: readonly string[]) => `${field} must be one of ${values.join(', ')}`;

/** An agency's alias: the slug Keycloak knows its identity provider by. */
const AGENCY_ALIAS = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Optional text of the agency form: absent or empty is none. */
const optionalAgencyText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .max(max, AGENCY_MESSAGES.clientTooLong)
    .optional()
    .transform((value) => value ?? '');

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
  // Shapes only: the auth service judges the domains, the address and what each protocol needs.
  agency: z.object({
    name: requiredText('name', { max: AGENCY_LIMITS.name, missing: AGENCY_MESSAGES.nameRequired }),
    protocol: z.enum(AGENCY_PROTOCOLS, { error: AGENCY_MESSAGES.unknownProtocol }),
    domains: z
      .array(requiredText('domain', { max: 253, missing: AGENCY_MESSAGES.domainsRequired }), {
        error: AGENCY_MESSAGES.domainsRequired,
      })
      .min(1, AGENCY_MESSAGES.domainsRequired)
      .max(AGENCY_LIMITS.domains, AGENCY_MESSAGES.tooManyDomains),
    metadata_url: requiredText('metadata_url', {
      max: AGENCY_LIMITS.url,
      missing: AGENCY_MESSAGES.badMetadataUrl,
    }),
    client_id: optionalAgencyText('client_id', AGENCY_LIMITS.clientId),
    // Never trimmed: a secret is sent to Keycloak exactly as the agency issued it.
    client_secret: optionalAgencyText('client_secret', AGENCY_LIMITS.clientSecret),
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

const agencyJson = (agency: Agency) => ({
  alias: agency.alias,
  name: agency.name,
  protocol: agency.protocol,
  domains: agency.domains,
  metadata_url: agency.metadata_url,
  client_id: agency.client_id,
  redirect_uri: agency.redirect_uri,
  logout_url: agency.logout_url,
  sp_metadata_url: agency.sp_metadata_url,
  created_at: instant(agency.created_at),
});

/** The alias in the path; anything that cannot be one names no agency. */
function aliasOf(value: string): string {
  if (!AGENCY_ALIAS.test(value)) throw new HttpError(404, AGENCY_MESSAGES.unknownAgency);
  return value;
}

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

  router.get('/agencies', ...admin, async (req, res) => {
    const { available, agencies } = await rpc(req, auth.listAgencies, {});
    res.setHeader('Cache-Control', 'private, no-store');
    res.json({ available, agencies: agencies.map(agencyJson) });
  });

  router.post('/agencies', ...adminWriter, async (req, res) => {
    const body = parseBody(bodies.agency, req);
    const agency = await rpc(req, auth.addAgency, body);
    res.status(201).json(agencyJson(agency));
  });

  router.delete('/agencies/:alias', ...adminWriter, async (req, res) => {
    await rpc(req, auth.removeAgency, { alias: aliasOf(req.params.alias as string) });
    res.status(204).end();
  });

  return router;
}
