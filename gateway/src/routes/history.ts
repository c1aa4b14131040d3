// The curation history paths (ADR 0031): GET /api/history/profile/:id and /api/history/organization/:id
// answer who changed what and when, newest first, for contributors only (401 for visitors, 403 for other
// members; the services refuse again). The owning service answers the entries with the actors' user ids; the
// gateway names them from the profile service (each actor's own profile; empty names when they own none), so
// the org service needs no client of the profile service.
import type { HistoryEntry as OrgHistoryEntry } from '@rotunda/protos/org';
import type { HistoryEntry as ProfileHistoryEntry } from '@rotunda/protos/profile';
// HISTORY_PAGE: the most entries one answer holds; older ones are asked for with ?before=<the last entry's id>.
import { CONTRIBUTOR_ROLE, HISTORY_PAGE } from '@rotunda/service-kit';
import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { requireMember, requireRole } from '../auth/middleware.ts';
import type { ServiceClients } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { parseQuery, pathIdOf } from '../http/validation.ts';

const pageQuery = z.object({
  before: z
    .string()
    .regex(/^\d{1,15}$/, { error: 'before must be the id of a history entry' })
    .transform(Number)
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, { error: `limit must be a whole number from 1 to ${HISTORY_PAGE}` })
    .transform(Number)
    .refine((n) => n >= 1 && n <= HISTORY_PAGE, {
      error: `limit must be a whole number from 1 to ${HISTORY_PAGE}`,
    })
    .optional(),
});

type Entry = OrgHistoryEntry | ProfileHistoryEntry;

export function historyRouter(clients: Pick<ServiceClients, 'org' | 'profile' | 'deadlineMs'>): Router {
  const router = express.Router();
  const { org, profile } = clients;
  const askOrg = serviceCaller(clients, 'org');
  const askProfile = serviceCaller(clients, 'profile');

  /** The entries as the API answers them, each actor named by their own profile. */
  async function answer(req: Request, entries: Entry[]) {
    const userIds = [...new Set(entries.map((entry) => entry.actor_user_id))];
    const { authors } =
      userIds.length === 0
        ? { authors: [] }
        : await askProfile(req, profile.getAuthorsByUsers, { user_ids: userIds });
    const names = new Map(authors.map((author) => [author.user_id, author]));
    return entries.map((entry) => {
      const actor = names.get(entry.actor_user_id);
      return {
        id: entry.id,
        at: entry.at?.toISOString() ?? null,
        actor: {
          user_id: entry.actor_user_id,
          first_name: actor?.first_name ?? '',
          last_name: actor?.last_name ?? '',
        },
        action: entry.action,
        changes: entry.changes.map((change) => ({
          field: change.field,
          from: change.from ?? null,
          to: change.to ?? null,
        })),
      };
    });
  }

  /** A page of a record's history, as the query asks for it (before an entry, at most `limit`). */
  async function sendHistory(
    req: Request,
    res: Response,
    list: (page: { before_id: number; limit: number }) => Promise<{ entries: Entry[] }>,
  ) {
    const page = parseQuery(pageQuery, req.query);
    const { entries } = await list({ before_id: page.before ?? 0, limit: page.limit ?? HISTORY_PAGE });
    res.json(await answer(req, entries));
  }

  router.use(requireMember, requireRole(CONTRIBUTOR_ROLE));

  router.get('/profile/:id', async (req, res) => {
    const profile_id = pathIdOf(req.params.id, 'Profile not found');
    await sendHistory(req, res, (page) =>
      askProfile(req, profile.listProfileHistory, { profile_id, ...page }),
    );
  });

  router.get('/organization/:id', async (req, res) => {
    const organization_id = pathIdOf(req.params.id, 'Organization not found');
    await sendHistory(req, res, (page) =>
      askOrg(req, org.listOrganizationHistory, { organization_id, ...page }),
    );
  });

  return router;
}
