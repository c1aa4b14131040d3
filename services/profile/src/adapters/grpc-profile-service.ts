// The gRPC face of the profile service (rotunda.profile.v1.ProfileService): translates messages to the rules'
// calls and the rules' answers back, null fields becoming absent ones.
import type {
  Author as AuthorMessage,
  Claimant as ClaimantMessage,
  Colleague as ColleagueMessage,
  DirectoryCard as DirectoryCardMessage,
  Division as DivisionMessage,
  IssueArea as IssueAreaMessage,
  JobFields as JobFieldsMessage,
  Job as JobMessage,
  ListedProfile as ListedProfileMessage,
  ProfileFields as ProfileFieldsMessage,
  Profile as ProfileMessage,
  ProfileServiceServer,
  UserIssue as UserIssueMessage,
} from '@rotunda/protos/profile';
import { type Logger, serverStream, unary } from '@rotunda/service-kit';
import type { Contacts } from '../domain/contacts.ts';
import type { DirectoryCard, PeopleDirectory } from '../domain/directory.ts';
import type { HistoryEntry } from '../domain/history.ts';
import type { IssueService } from '../domain/issue-service.ts';
import type { JobService } from '../domain/job-service.ts';
import type {
  Author,
  Claimant,
  ClaimOnProfile,
  Colleague,
  DivisionRef,
  IssueArea,
  Job,
  ListedProfile,
  ProfileView,
  UserIssue,
} from '../domain/model.ts';
import type { ProfileService } from '../domain/profile-service.ts';
import type { JobInput, ProfileInput } from '../domain/rules.ts';
import { grpcContactHandlers } from './grpc-contacts.ts';

/** null (not given) becomes absent, which the REST answer shows as null. */
const opt = <T>(value: T | null): T | undefined => value ?? undefined;

export function divisionMessage(division: DivisionRef): DivisionMessage {
  return {
    division_id: division.divisionId,
    division_name: division.divisionName,
    division_type: division.divisionType,
    active_division: division.activeDivision,
    organization_id: division.organizationId,
    street_address: opt(division.streetAddress),
    suite_number: opt(division.suiteNumber),
    city: opt(division.city),
    state: opt(division.state),
    zip_code: opt(division.zipCode),
    division_phone: opt(division.divisionPhone),
    website: opt(division.website),
  };
}

export function jobMessage(job: Job): JobMessage {
  return {
    job_id: job.jobId,
    profile_id: job.profileId,
    title: job.title,
    organization_id: job.organizationId,
    division_id: opt(job.divisionId),
    street_address: job.streetAddress,
    suite_number: opt(job.suiteNumber),
    city: job.city,
    state: job.state,
    zip_code: job.zipCode,
    start_date: job.startDate,
    end_date: opt(job.endDate),
    current_job: job.currentJob,
    organization: {
      organization_id: job.organization.organizationId,
      organization_name: job.organization.organizationName,
      group_type: job.organization.groupType,
      logo: opt(job.organization.logo),
    },
    division: job.division ? divisionMessage(job.division) : undefined,
  };
}

const issueAreaMessage = (issueArea: IssueArea): IssueAreaMessage => ({
  issue_id: issueArea.issueId,
  issue_name: issueArea.issueName,
});

const userIssueMessage = (userIssue: UserIssue): UserIssueMessage => ({
  id: userIssue.id,
  profile_id: userIssue.profileId,
  issue_id: userIssue.issueId,
  issue_area: issueAreaMessage(userIssue.issueArea),
});

const claimantMessage = (claimant: Claimant, claimedAt: Date): ClaimantMessage => ({
  user_id: claimant.userId,
  first_name: claimant.firstName,
  last_name: claimant.lastName,
  email: claimant.email,
  claimed_at: claimedAt,
});

/** What a listed profile's message is made of (a profile view has it all, and more). */
type ListedFields = Omit<ListedProfile, 'pendingClaim'> & {
  pendingClaim: Pick<ClaimOnProfile, 'claimId'> | null;
};

/** A profile in a list: every field but the personal contact details, which its type does not have. */
export function listedProfileMessage(profile: ListedFields): ListedProfileMessage {
  return {
    profile_id: profile.profileId,
    user_id: opt(profile.userId),
    first_name: profile.firstName,
    last_name: profile.lastName,
    work_email: profile.workEmail,
    other_phone: opt(profile.otherPhone),
    pronouns: opt(profile.pronouns),
    profile_picture: opt(profile.profilePicture),
    user_bio: opt(profile.userBio),
    lobby_filer_id: opt(profile.lobbyFilerId),
    linkedin_url: opt(profile.linkedinUrl),
    facebook_url: opt(profile.facebookUrl),
    youtube_url: opt(profile.youtubeUrl),
    threads_url: opt(profile.threadsUrl),
    twitter_url: opt(profile.twitterUrl),
    instagram_url: opt(profile.instagramUrl),
    tiktok_url: opt(profile.tiktokUrl),
    bluesky_url: opt(profile.blueskyUrl),
    claim_pending: profile.pendingClaim !== null,
    job_experiences: profile.jobs.map(jobMessage),
    user_issues: profile.issues.map(userIssueMessage),
    claim_id: profile.pendingClaim?.claimId,
  };
}

/** The profile page's answer, as one member sees it. */
export function profileMessage(profile: ProfileView): ProfileMessage {
  const claim = profile.pendingClaim;
  return {
    ...listedProfileMessage(profile),
    personal_email: opt(profile.personalEmail),
    mobile_phone: opt(profile.mobilePhone),
    birthday: opt(profile.birthday),
    claimed_by_caller: profile.claimedByCaller,
    verified_employer: profile.verifiedEmployer,
    claimant: claim?.claimant ? claimantMessage(claim.claimant, claim.createdAt) : undefined,
  };
}

const colleagueMessage = (colleague: Colleague): ColleagueMessage => ({
  profile_id: colleague.profileId,
  title: colleague.title,
  city: colleague.city,
  state: colleague.state,
  division: colleague.division ? divisionMessage(colleague.division) : undefined,
  profile_info: {
    profile_id: colleague.profileId,
    first_name: colleague.firstName,
    last_name: colleague.lastName,
    profile_picture: opt(colleague.profilePicture),
    other_phone: opt(colleague.otherPhone),
    work_email: colleague.workEmail,
  },
});

const historyMessage = (entry: HistoryEntry) => ({
  id: entry.id,
  at: entry.at,
  actor_user_id: entry.actorUserId,
  action: entry.action,
  changes: entry.changes.map((change) => ({
    field: change.field,
    from: opt(change.from),
    to: opt(change.to),
  })),
});

const authorMessage = (author: Author): AuthorMessage => ({
  profile_id: author.profileId,
  user_id: author.userId ?? '',
  first_name: author.firstName,
  last_name: author.lastName,
  profile_picture: opt(author.profilePicture),
  organization_id: opt(author.organizationId),
  division_id: opt(author.divisionId),
  issue_areas: author.issueAreaIds ? { issue_area_ids: author.issueAreaIds } : undefined,
});

/** Absent stays absent (keep the stored value); present, even empty, is passed on (empty clears). */
function profileInputOf(message: ProfileFieldsMessage | undefined): ProfileInput {
  const m = message ?? {};
  const fields: ProfileInput = {
    firstName: m.first_name,
    lastName: m.last_name,
    workEmail: m.work_email,
    personalEmail: m.personal_email,
    mobilePhone: m.mobile_phone,
    otherPhone: m.other_phone,
    birthday: m.birthday,
    pronouns: m.pronouns,
    profilePicture: m.profile_picture,
    lobbyFilerId: m.lobby_filer_id,
    linkedinUrl: m.linkedin_url,
    facebookUrl: m.facebook_url,
    youtubeUrl: m.youtube_url,
    threadsUrl: m.threads_url,
    twitterUrl: m.twitter_url,
    instagramUrl: m.instagram_url,
    tiktokUrl: m.tiktok_url,
    blueskyUrl: m.bluesky_url,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function jobInputOf(message: JobFieldsMessage | undefined): JobInput {
  return {
    title: message?.title,
    organizationId: message?.organization_id,
    divisionId: message?.division_id,
    streetAddress: message?.street_address,
    suiteNumber: message?.suite_number,
    city: message?.city,
    state: message?.state,
    zipCode: message?.zip_code,
    startDate: message?.start_date,
    endDate: message?.end_date,
    currentJob: message?.current_job,
  };
}

/** A card as the proto has it: absent where not given. */
function cardMessage(card: DirectoryCard): DirectoryCardMessage {
  return {
    profile_id: card.profileId,
    first_name: card.firstName,
    last_name: card.lastName,
    profile_picture: card.profilePicture ?? undefined,
    title: card.title ?? undefined,
    organization_name: card.organizationName ?? undefined,
    division_name: card.divisionName ?? undefined,
    group_type: card.groupType ?? undefined,
    city: card.city ?? undefined,
    state: card.state ?? undefined,
    verified_employer: card.verifiedEmployer,
  };
}

export function grpcProfileService(
  {
    profiles,
    jobs,
    issues,
    directory,
    contacts,
  }: {
    profiles: ProfileService;
    jobs: JobService;
    issues: IssueService;
    directory: PeopleDirectory;
    contacts: Contacts;
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
        await profiles.findUnclaimedMatches(context.caller, {
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
    createProfile: unary(logger, 'CreateProfile', async (request, context) =>
      profileMessage(await profiles.createProfile(context.caller, profileInputOf(request.fields))),
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
        await profiles.claimProfile(context.caller, request.profile_id, {
          firstName: request.claimant_first_name,
          lastName: request.claimant_last_name,
        }),
      ),
    ),
    listPendingClaims: unary(logger, 'ListPendingClaims', async (_request, context) => ({
      claims: (await profiles.listPendingClaims(context.caller)).map((claim) => ({
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
      const claim = await profiles.decideClaim(context.caller, request.claim_id, request.decision);
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
    addJob: unary(logger, 'AddJob', async (request, context) =>
      jobMessage(await jobs.addJob(context.caller, request.profile_id, jobInputOf(request.fields))),
    ),
    updateJob: unary(logger, 'UpdateJob', async (request, context) =>
      jobMessage(await jobs.updateJob(context.caller, request.job_id, jobInputOf(request.fields))),
    ),
    deleteJob: unary(logger, 'DeleteJob', async (request, context) => {
      await jobs.deleteJob(context.caller, request.job_id);
      return {};
    }),
    listOrganizationColleagues: unary(logger, 'ListOrganizationColleagues', async (request, context) => ({
      colleagues: (await profiles.organizationColleagues(context.caller, request.organization_id)).map(
        colleagueMessage,
      ),
    })),
    listDivisionColleagues: unary(logger, 'ListDivisionColleagues', async (request, context) => ({
      colleagues: (await profiles.divisionColleagues(context.caller, request.division_id)).map(
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
      authorMessage(await profiles.authorByUser(request.user_id)),
    ),
    getAuthors: unary(logger, 'GetAuthors', async (request) => ({
      authors: (await profiles.authors(request.profile_ids)).map(authorMessage),
    })),
    listAuthors: unary(logger, 'ListAuthors', async (request) => ({
      authors: (await profiles.listAuthors(request.after_profile_id, request.limit)).map(authorMessage),
    })),
    getAuthorsByUsers: unary(logger, 'GetAuthorsByUsers', async (request) => ({
      authors: (await profiles.authorsByUsers(request.user_ids)).map(authorMessage),
    })),
    listProfileHistory: unary(logger, 'ListProfileHistory', async (request, context) => ({
      entries: (
        await profiles.profileHistory(context.caller, request.profile_id, request.before_id, request.limit)
      ).map(historyMessage),
    })),
  };
}
