// The /api/issues/* REST paths of docs/product.md#7-the-calls-it-makes (docs/api.md, Issues): members only,
// bodies validated here, then forwarded to the profile service over gRPC, its answers shaped with the spec's
// names. The service decides who may change a profile's issues (the owner, or a contributor while unclaimed);
// an issue area's name holding a control, format or replacement character is refused here in the rule's
// words, and again by the service. Every change is refused to a suspended member before anything else is
// checked (refuseSuspended, ADR 0041).
import type { IssueArea, UserIssue } from '@rotunda/protos/profile';
import { unseenCharactersMessage, unseenCharactersProblem } from '@rotunda/rules';
import express, { type Router } from 'express';
import { z } from 'zod';
import { refuseSuspended, requireMember } from '../auth/middleware.ts';
import type { ServiceClients } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { idField, parseBody } from '../http/validation.ts';

export function issueAreaJson(issueArea: IssueArea | undefined) {
  return { issue_id: issueArea?.issue_id ?? 0, issue_name: issueArea?.issue_name ?? '' };
}

export function userIssueJson(userIssue: UserIssue) {
  return {
    id: userIssue.id,
    profile_id: userIssue.profile_id,
    issue_id: userIssue.issue_id,
    IssueArea: issueAreaJson(userIssue.issue_area),
  };
}

const bodies = {
  addIssueArea: z.object({
    issue_name: z
      .string({ error: 'issue_name must be text' })
      .max(100, 'issue_name must be at most 100 characters')
      .refine((name) => !unseenCharactersProblem('Issue Name', name), unseenCharactersMessage('Issue Name'))
      .nullish(),
  }),
  addUserIssue: z.object({ profile_id: idField('profile_id'), issue_id: idField('issue_id') }),
  deleteUserIssue: z.object({ id: idField('id') }),
};

export function issuesRouter(clients: Pick<ServiceClients, 'profile' | 'deadlineMs'>): Router {
  const router = express.Router();
  const { profile } = clients;
  const rpc = serviceCaller(clients, 'profile');

  router.use(requireMember);

  router.get('/', async (req, res) => {
    const answer = await rpc(req, profile.listIssueAreas, {});
    res.json(answer.issue_areas.map(issueAreaJson));
  });

  router.post('/add-issue-area', refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.addIssueArea, req);
    const answer = await rpc(req, profile.addIssueArea, { issue_name: body.issue_name ?? '' });
    // 201 when made; 200 with the existing issue area when that name was already there.
    res.status(answer.created ? 201 : 200).json(issueAreaJson(answer.issue_area));
  });

  router.post('/add-user-issue', refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.addUserIssue, req);
    const answer = await rpc(req, profile.addUserIssue, {
      profile_id: body.profile_id,
      issue_id: body.issue_id,
    });
    res.status(201).json(userIssueJson(answer));
  });

  router.delete('/delete-user-issue', refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.deleteUserIssue, req);
    await rpc(req, profile.deleteUserIssue, { id: body.id });
    res.status(204).end();
  });

  return router;
}
