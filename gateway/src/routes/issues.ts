// The /api/issues/* REST paths of spec §7 (contract.md, Issues): members only, bodies validated here, then
// forwarded to the profile service over gRPC, its answers shaped with the spec's names. The service decides who
// may change a profile's issues (the owner, or a contributor while unclaimed).
import type { IssueArea, UserIssue } from '@rotunda/protos/profile';
import express, { type Request, type Router } from 'express';
import { z } from 'zod';
import { requireMember } from '../auth/middleware.ts';
import { call, type ServiceClients, type UnaryMethod } from '../grpc/clients.ts';
import { parseBody } from './body.ts';

const MAX_ID = 2 ** 31 - 1;

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

/** A required id in a body: a whole number, or its digits as text. */
export const idField = (field: string) =>
  z
    .union(
      [z.number(), z.string().trim().regex(/^\d+$/, `${field} must be a whole number`).transform(Number)],
      {
        error: (issue) =>
          issue.input === undefined || issue.input === null
            ? `${field} is required`
            : `${field} must be a whole number`,
      },
    )
    .refine((value) => Number.isSafeInteger(value) && value >= 1 && value <= MAX_ID, {
      message: `${field} must be a whole number`,
    });

const bodies = {
  addIssueArea: z.object({
    issue_name: z
      .string({ error: 'issue_name must be text' })
      .max(100, 'issue_name must be at most 100 characters')
      .nullish(),
  }),
  addUserIssue: z.object({ profile_id: idField('profile_id'), issue_id: idField('issue_id') }),
  deleteUserIssue: z.object({ id: idField('id') }),
};

export function issuesRouter(clients: Pick<ServiceClients, 'profile' | 'deadlineMs'>): Router {
  const router = express.Router();
  const { profile } = clients;
  const rpc = <Req, Res>(req: Request, method: UnaryMethod<Req, Res>, request: Req) =>
    call('profile', profile, method, request, {
      requestId: req.id as string,
      deadlineMs: clients.deadlineMs,
      caller: req.caller,
    });

  router.use(requireMember);

  router.get('/', async (req, res) => {
    const answer = await rpc(req, profile.listIssueAreas, {});
    res.json(answer.issue_areas.map(issueAreaJson));
  });

  router.post('/add-issue-area', async (req, res) => {
    const body = parseBody(bodies.addIssueArea, req);
    const answer = await rpc(req, profile.addIssueArea, { issue_name: body.issue_name ?? '' });
    // 201 when made; 200 with the existing issue area when that name was already there.
    res.status(answer.created ? 201 : 200).json(issueAreaJson(answer.issue_area));
  });

  router.post('/add-user-issue', async (req, res) => {
    const body = parseBody(bodies.addUserIssue, req);
    const answer = await rpc(req, profile.addUserIssue, {
      profile_id: body.profile_id,
      issue_id: body.issue_id,
    });
    res.status(201).json(userIssueJson(answer));
  });

  router.delete('/delete-user-issue', async (req, res) => {
    const body = parseBody(bodies.deleteUserIssue, req);
    await rpc(req, profile.deleteUserIssue, { id: body.id });
    res.status(204).end();
  });

  return router;
}
