// The profile service's rules for issue areas (docs/product.md#3-entities-and-their-fields,
// #5-validation-rules duplicate issue, #7-the-calls-it-makes issues): any member lists and adds issue areas
// (one per name, any case); a profile's owner, or a contributor while unclaimed, adds and removes the issues
// the profile covers, each once.
import { type Caller, notFound, requireMember } from '@rotunda/service-kit';
import { alreadyExists, MESSAGES, ownershipOrThrow, requireEditor, validId } from './access.ts';
import type { PeopleDirectory } from './directory.ts';
import { curationOf } from './history.ts';
import type { IssueArea, UserIssue } from './model.ts';
import type { IssueRepository, ProfileRepository } from './ports.ts';
import { cleanIssueName } from './rules.ts';

export interface IssueServiceDependencies {
  issues: IssueRepository;
  profiles: Pick<ProfileRepository, 'findOwnership'>;
  /** The people directory's index: it filters by issue area. */
  directory: Pick<PeopleDirectory, 'profilesChanged'>;
}

export function createIssueService({ issues, profiles, directory }: IssueServiceDependencies) {
  return {
    async listIssueAreas(caller: Caller | undefined): Promise<IssueArea[]> {
      requireMember(caller);
      return issues.listIssueAreas();
    },

    /** Any member; the issue area of the same name (any case, spaces folded) is answered instead of a twin. */
    async addIssueArea(
      caller: Caller | undefined,
      issueName: string,
    ): Promise<{ issueArea: IssueArea; created: boolean }> {
      requireMember(caller);
      const { name, key } = cleanIssueName(issueName);
      return issues.addIssueAreaUnlessKeyed(name, key);
    },

    async addUserIssue(caller: Caller | undefined, profileId: number, issueId: number): Promise<UserIssue> {
      const member = requireMember(caller);
      const owner = await ownershipOrThrow(profiles, profileId);
      requireEditor(member, owner);
      const issue = validId(issueId) ? await issues.findIssueArea(issueId) : null;
      if (!issue) throw notFound(MESSAGES.issueNotFound);
      const added = await issues.addUserIssue(
        profileId,
        issueId,
        curationOf(member, owner, 'issue_added', [{ field: 'issue_area', from: null, to: issue.issueName }]),
      );
      if (!added) throw alreadyExists(MESSAGES.duplicateIssue);
      await directory.profilesChanged([profileId]);
      return added;
    },

    async deleteUserIssue(caller: Caller | undefined, id: number): Promise<void> {
      const member = requireMember(caller);
      const userIssue = validId(id) ? await issues.findUserIssue(id) : null;
      if (!userIssue) throw notFound(MESSAGES.issueNotFound);
      const owner = await ownershipOrThrow(profiles, userIssue.profileId);
      requireEditor(member, owner);
      const issue = await issues.findIssueArea(userIssue.issueId);
      const removed = [{ field: 'issue_area', from: issue?.issueName ?? null, to: null }];
      if (!(await issues.deleteUserIssue(id, curationOf(member, owner, 'issue_removed', removed))))
        throw notFound(MESSAGES.issueNotFound);
      await directory.profilesChanged([userIssue.profileId]);
    },
  };
}

export type IssueService = ReturnType<typeof createIssueService>;
