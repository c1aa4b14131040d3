// The gRPC face of the profile service (rotunda.profile.v1.ProfileService): each call to the rules' call that
// answers it, requests and answers translated by grpc-messages.ts.
import {
  AddJobRequest,
  CreateProfileRequest,
  Job,
  Profile,
  type ProfileServiceServer,
} from '@rotunda/protos/profile';
import {
  historyEntryMessage,
  type IdempotencyKeys,
  type Logger,
  serverStream,
  unary,
} from '@rotunda/service-kit';
import type { ClaimService } from '../domain/claim-service.ts';
import type { Contacts } from '../domain/contacts.ts';
import type { PeopleDirectory } from '../domain/directory.ts';
import type { IssueService } from '../domain/issue-service.ts';
import type { JobService } from '../domain/job-service.ts';
import type { MemberData } from '../domain/member-data.ts';
import type { PeopleLookups } from '../domain/people-lookups.ts';
import type { ProfileService } from '../domain/profile-service.ts';
import { grpcContactHandlers } from './grpc-contacts.ts';
import {
  authorMessage,
  cardMessage,
  claimantMessage,
  colleagueMessage,
  issueAreaMessage,
  jobInputOf,
  jobMessage,
  listedProfileMessage,
  profileInputOf,
  profileMessage,
  userIssueMessage,
} from './grpc-messages.ts';

export function grpcProfileService(
  {
    profiles,
    claims,
    lookups,
    jobs,
    issues,
    directory,
    contacts,
    members,
    keys,
  }: {
    profiles: ProfileService;
    claims: ClaimService;
    lookups: PeopleLookups;
    jobs: JobService;
    issues: IssueService;
    directory: PeopleDirectory;
    contacts: Contacts;
    members: MemberData;
    /** Makes each create answer a repeat of its Idempotency-Key with its first answer (ADR 0046). */
    keys: IdempotencyKeys;
  },
  logger: Logger,
): ProfileServiceServer {
  return {
    ...grpcContactHandlers(contacts, logger),
    searchDirectory: unary(logger, 'SearchDirectory', async (request, context) => {
      const { cards, total, totalIsLowerBound } = await directory.search(context.caller, {
        search: request.search,
        group: request.group,
        issueId: request.issue_id ?? null,
        offset: request.offset,
        limit: request.limit,
      });
      return { profiles: cards.map(cardMessage), total, total_is_lower_bound: totalIsLowerBound };
    }),
    listDirectory: serverStream(logger, 'ListDirectory', async function* (_request, context) {
      for await (const profile of profiles.listDirectory(context.caller)) yield listedProfileMessage(profile);
    }),
    findUnclaimedMatches: unary(logger, 'FindUnclaimedMatches', async (request, context) => ({
      profiles: (
        await claims.findUnclaimedMatches(context.caller, {
          firstName: request.first_name,
          lastName: request.last_name,
          email: request.email,
        })
      ).map(listedProfileMessage),
    })),
    userCheck: unary(logger, 'UserCheck', async (_request, context) => ({
      profiles: (await profiles.userCheck(context.caller)).map((owned) => ({
        user_id: owned.userId,
        profile_id: owned.profileId,
        claim_pending: owned.claimPending,
      })),
    })),
    createProfile: unary(
      logger,
      'CreateProfile',
      keys.create(
        'CreateProfile',
        { request: CreateProfileRequest, response: Profile },
        async (request, context) =>
          profileMessage(await profiles.createProfile(context.caller, profileInputOf(request.fields))),
        async (made, context) => profileMessage(await profiles.getProfile(context.caller, Number(made))),
      ),
    ),
    uploadPicture: unary(logger, 'UploadPicture', async (request, context) => ({
      url: await profiles.uploadPicture(context.caller, request.image, request.profile_id),
    })),
    getProfile: unary(logger, 'GetProfile', async (request, context) =>
      profileMessage(await profiles.getProfile(context.caller, request.profile_id)),
    ),
    updateProfile: unary(logger, 'UpdateProfile', async (request, context) =>
      profileMessage(
        await profiles.updateProfile(context.caller, request.profile_id, profileInputOf(request.fields)),
      ),
    ),
    claimProfile: unary(logger, 'ClaimProfile', async (request, context) =>
      profileMessage(
        await claims.claimProfile(context.caller, request.profile_id, {
          firstName: request.claimant_first_name,
          lastName: request.claimant_last_name,
        }),
      ),
    ),
    listPendingClaims: unary(logger, 'ListPendingClaims', async (_request, context) => ({
      claims: (await claims.listPendingClaims(context.caller)).map((claim) => ({
        claim_id: claim.claimId,
        profile_id: claim.profileId,
        user_id: claim.userId,
        first_name: claim.firstName,
        last_name: claim.lastName,
        work_email: claim.workEmail,
        created_at: claim.createdAt,
        claimant: claimantMessage(claim.claimant, claim.createdAt),
      })),
    })),
    decideClaim: unary(logger, 'DecideClaim', async (request, context) => {
      const claim = await claims.decideClaim(context.caller, request.claim_id, request.decision);
      return {
        claim_id: claim.claimId,
        profile_id: claim.profileId,
        status: claim.status,
        decided_at: claim.decidedAt,
      };
    }),
    setBio: unary(logger, 'SetBio', async (request, context) =>
      profileMessage(await profiles.setBio(context.caller, request.profile_id, request.user_bio)),
    ),
    addJob: unary(
      logger,
      'AddJob',
      keys.create(
        'AddJob',
        { request: AddJobRequest, response: Job },
        async (request, context) =>
          jobMessage(await jobs.addJob(context.caller, request.profile_id, jobInputOf(request.fields))),
        async (made, context) => jobMessage(await jobs.getJob(context.caller, Number(made))),
      ),
    ),
    updateJob: unary(logger, 'UpdateJob', async (request, context) =>
      jobMessage(await jobs.updateJob(context.caller, request.job_id, jobInputOf(request.fields))),
    ),
    deleteJob: unary(logger, 'DeleteJob', async (request, context) => {
      await jobs.deleteJob(context.caller, request.job_id);
      return {};
    }),
    listOrganizationColleagues: unary(logger, 'ListOrganizationColleagues', async (request, context) => ({
      colleagues: (await lookups.organizationColleagues(context.caller, request.organization_id)).map(
        colleagueMessage,
      ),
    })),
    listDivisionColleagues: unary(logger, 'ListDivisionColleagues', async (request, context) => ({
      colleagues: (await lookups.divisionColleagues(context.caller, request.division_id)).map(
        colleagueMessage,
      ),
    })),
    listIssueAreas: unary(logger, 'ListIssueAreas', async (_request, context) => ({
      issue_areas: (await issues.listIssueAreas(context.caller)).map(issueAreaMessage),
    })),
    addIssueArea: unary(logger, 'AddIssueArea', async (request, context) => {
      const { issueArea, created } = await issues.addIssueArea(context.caller, request.issue_name);
      return { issue_area: issueAreaMessage(issueArea), created };
    }),
    addUserIssue: unary(logger, 'AddUserIssue', async (request, context) =>
      userIssueMessage(await issues.addUserIssue(context.caller, request.profile_id, request.issue_id)),
    ),
    deleteUserIssue: unary(logger, 'DeleteUserIssue', async (request, context) => {
      await issues.deleteUserIssue(context.caller, request.id);
      return {};
    }),
    getAuthorByUser: unary(logger, 'GetAuthorByUser', async (request) =>
      authorMessage(await lookups.authorByUser(request.user_id)),
    ),
    getAuthors: unary(logger, 'GetAuthors', async (request) => ({
      authors: (await lookups.authors(request.profile_ids)).map(authorMessage),
    })),
    listAuthors: unary(logger, 'ListAuthors', async (request) => ({
      authors: (await lookups.listAuthors(request.after_profile_id, request.limit)).map(authorMessage),
    })),
    getAuthorsByUsers: unary(logger, 'GetAuthorsByUsers', async (request) => ({
      authors: (await lookups.authorsByUsers(request.user_ids)).map(authorMessage),
    })),
    exportMine: unary(logger, 'ExportMine', async (_request, context) => ({
      json: JSON.stringify(await members.exportMine(context.caller)),
    })),
    listMemberIssueAreas: serverStream(logger, 'ListMemberIssueAreas', async function* (_request, context) {
      for await (const owner of members.memberIssueAreas(context.caller, context.service))
        yield { user_id: owner.userId, profile_id: owner.profileId, issue_area_ids: owner.issueAreaIds };
    }),
    listProfileHistory: unary(logger, 'ListProfileHistory', async (request, context) => ({
      entries: (
        await profiles.profileHistory(context.caller, request.profile_id, request.before_id, request.limit)
      ).map(historyEntryMessage),
    })),
  };
}
