// How the profile schema's rows read as the profile service's shapes, and its fields as columns: a profile with
// its pending claim, jobs (with the organization and division names from the read copies) and issues; a listed
// profile without the personal contact details; a post's author with their latest current job; dates as
// 'YYYY-MM-DD'. Shared by the schema's Prisma adapters.
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import {
  type Author,
  type ClaimOnProfile,
  type Job,
  type JobFields,
  type ListedProfile,
  type OrganizationRef,
  PERSONAL_FIELD_KEYS,
  type PersonalFieldKey,
  type Profile,
  type ProfileFields,
} from '../domain/model.ts';
import { divisionOf, organizationOf } from './prisma-org-copy.ts';

export type Client = PrismaClient | Prisma.TransactionClient;

const jobOrder = [
  { currentJob: 'desc' },
  { startDate: 'desc' },
  { jobId: 'desc' },
] satisfies Prisma.JobExperienceOrderByWithRelationInput[];

/** The claim waiting on a profile (at most one, by a unique index), with who claims. */
export const pendingClaim = {
  where: { status: 'pending' },
  select: {
    claimId: true,
    userId: true,
    claimantFirstName: true,
    claimantLastName: true,
    claimantEmail: true,
    createdAt: true,
  },
  take: 1,
} satisfies Prisma.Profile$claimsArgs;

/** What a profile answer is read with; `currentOnly` keeps the directory's jobs to the current ones. */
export const profileInclude = (currentOnly: boolean) =>
  ({
    jobs: { ...(currentOnly ? { where: { currentJob: true } } : {}), orderBy: jobOrder },
    issues: { include: { issueArea: true } },
    claims: pendingClaim,
  }) satisfies Prisma.ProfileInclude;

/** Lists and bulk answers never read the personal contact details. */
export const personalOmitted = Object.fromEntries(PERSONAL_FIELD_KEYS.map((key) => [key, true])) as Record<
  PersonalFieldKey,
  true
> satisfies Prisma.ProfileOmit;

type ProfileRow = Prisma.ProfileGetPayload<{ include: ReturnType<typeof profileInclude> }>;
type ListedRow = Prisma.ProfileGetPayload<{
  include: ReturnType<typeof profileInclude>;
  omit: typeof personalOmitted;
}>;
type ClaimRow = ProfileRow['claims'][number];
export type JobRow = Prisma.JobExperienceGetPayload<object>;

/** 'YYYY-MM-DD' of a DATE column (Prisma reads it as midnight UTC). */
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const dateOf = (day: string) => new Date(`${day}T00:00:00Z`);

/** The names behind the jobs' organization and division ids, from the read copies. */
export async function placesOf(client: Client, jobs: readonly JobRow[]) {
  const organizationIds = [...new Set(jobs.map((job) => job.organizationId))];
  const divisionIds = [...new Set(jobs.flatMap((job) => (job.divisionId === null ? [] : [job.divisionId])))];
  // One after the other: inside a transaction both would share one connection.
  const organizations = organizationIds.length
    ? await client.organization.findMany({ where: { organizationId: { in: organizationIds } } })
    : [];
  const divisions = divisionIds.length
    ? await client.division.findMany({ where: { divisionId: { in: divisionIds } } })
    : [];
  return {
    organizations: new Map(organizations.map((row) => [row.organizationId, organizationOf(row)])),
    divisions: new Map(divisions.map((row) => [row.divisionId, divisionOf(row)])),
  };
}

type Places = Awaited<ReturnType<typeof placesOf>>;

/** An organization the copy has not caught up with yet shows by its id alone. */
const unknownOrganization = (organizationId: number): OrganizationRef => ({
  organizationId,
  organizationName: '',
  groupType: '',
  logo: null,
  emailDomains: [],
});

export function jobOf(row: JobRow, places: Places): Job {
  return {
    jobId: row.jobId,
    profileId: row.profileId,
    title: row.title,
    organizationId: row.organizationId,
    divisionId: row.divisionId,
    streetAddress: row.streetAddress,
    suiteNumber: row.suiteNumber,
    city: row.city,
    state: row.state,
    zipCode: row.zipCode,
    startDate: dayOf(row.startDate),
    endDate: row.endDate ? dayOf(row.endDate) : null,
    currentJob: row.currentJob,
    organization: places.organizations.get(row.organizationId) ?? unknownOrganization(row.organizationId),
    division: row.divisionId === null ? null : (places.divisions.get(row.divisionId) ?? null),
  };
}

export function claimOf(row: ClaimRow): ClaimOnProfile {
  return {
    claimId: row.claimId,
    claimant: {
      userId: row.userId,
      firstName: row.claimantFirstName,
      lastName: row.claimantLastName,
      email: row.claimantEmail,
    },
    createdAt: row.createdAt,
  };
}

/** What a profile answer and a listed one share: the pending claim, jobs and issues. */
function relationsOf(
  { jobs, issues, claims }: Pick<ProfileRow, 'jobs' | 'issues' | 'claims'>,
  places: Places,
) {
  const claim = claims[0];
  return {
    claimantId: claim?.userId ?? null,
    pendingClaim: claim ? claimOf(claim) : null,
    jobs: jobs.map((job) => jobOf(job, places)),
    issues: issues
      .map((issue) => ({
        id: issue.id,
        profileId: issue.profileId,
        issueId: issue.issueId,
        issueArea: { issueId: issue.issueArea.issueId, issueName: issue.issueArea.issueName },
      }))
      .sort(
        (a, b) =>
          a.issueArea.issueName.localeCompare(b.issueArea.issueName, 'en', { sensitivity: 'base' }) ||
          a.id - b.id,
      ),
  };
}

/** A row's own fields as a profile answers them: not its relations, timestamps or who changed its work email. */
function ownFieldsOf<Row extends ListedRow>(row: Row) {
  const {
    jobs: _j,
    issues: _i,
    claims: _cl,
    createdAt: _c,
    updatedAt: _u,
    workEmailChangedAt: _wa,
    workEmailChangedBy: _wb,
    ...fields
  } = row;
  return fields;
}

function profileOf(row: ProfileRow, places: Places): Profile {
  const { birthday, ...fields } = ownFieldsOf(row);
  return { ...fields, birthday: birthday ? dayOf(birthday) : null, ...relationsOf(row, places) };
}

function listedProfileOf(row: ListedRow, places: Places): ListedProfile {
  return { ...ownFieldsOf(row), ...relationsOf(row, places) };
}

export async function profilesOf(client: Client, rows: ProfileRow[]): Promise<Profile[]> {
  const places = await placesOf(
    client,
    rows.flatMap((row) => row.jobs),
  );
  return rows.map((row) => profileOf(row, places));
}

export async function listedProfilesOf(client: Client, rows: ListedRow[]): Promise<ListedProfile[]> {
  const places = await placesOf(
    client,
    rows.flatMap((row) => row.jobs),
  );
  return rows.map((row) => listedProfileOf(row, places));
}

/** The columns of a profile's fields as Prisma writes them. */
export function profileData(fields: Partial<ProfileFields>): Prisma.ProfileUncheckedUpdateInput {
  const { birthday, ...rest } = fields;
  return {
    ...rest,
    ...(birthday === undefined ? {} : { birthday: birthday === null ? null : dateOf(birthday) }),
  };
}

export function jobData(fields: JobFields) {
  return {
    ...fields,
    startDate: dateOf(fields.startDate),
    endDate: fields.endDate === null ? null : dateOf(fields.endDate),
  };
}

export const withCurrentJob = {
  jobs: { where: { currentJob: true }, orderBy: jobOrder, take: 1 },
  issues: { select: { issueId: true }, orderBy: { issueId: 'asc' } },
} satisfies Prisma.ProfileInclude;

export function authorOf(row: Prisma.ProfileGetPayload<{ include: typeof withCurrentJob }>): Author {
  const job = row.jobs[0];
  return {
    profileId: row.profileId,
    userId: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    profilePicture: row.profilePicture,
    organizationId: job?.organizationId ?? null,
    divisionId: job?.divisionId ?? null,
    issueAreaIds: row.issues.map((issue) => issue.issueId),
  };
}
