// Profiles, their jobs and claims in the profile schema through Prisma, with the organization and division names
// taken from the read copies. Every write to a profile row announces a 'profile' change in its transaction, so
// the services keeping a copy of names hear of it exactly when it commits (ADR 0012). Lists never read the
// personal contact details. Raw SQL only for row and advisory locks and case-insensitive equality.
import { publishChange } from '@rotunda/events';
import { emailDomainOf } from '@rotunda/rules';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { Curation } from '../domain/history.ts';
import type {
  Author,
  ClaimOnProfile,
  Colleague,
  Job,
  JobFields,
  ListedProfile,
  OrganizationRef,
  Profile,
  ProfileFields,
} from '../domain/model.ts';
import type { JobRepository, ProfileRepository } from '../domain/ports.ts';
import { prismaHistoryReads, recordCuration } from './prisma-history.ts';
import { divisionOf, organizationOf } from './prisma-org-copy.ts';

type Client = PrismaClient | Prisma.TransactionClient;

const jobOrder = [
  { currentJob: 'desc' },
  { startDate: 'desc' },
  { jobId: 'desc' },
] satisfies Prisma.JobExperienceOrderByWithRelationInput[];

/** The claim waiting on a profile (at most one, by a unique index), with who claims. */
const pendingClaim = {
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
const profileInclude = (currentOnly: boolean) =>
  ({
    jobs: { ...(currentOnly ? { where: { currentJob: true } } : {}), orderBy: jobOrder },
    issues: { include: { issueArea: true } },
    claims: pendingClaim,
  }) satisfies Prisma.ProfileInclude;

/** Lists and bulk answers never read the personal contact details. */
const personalOmitted = {
  personalEmail: true,
  mobilePhone: true,
  birthday: true,
} satisfies Prisma.ProfileOmit;

type ProfileRow = Prisma.ProfileGetPayload<{ include: ReturnType<typeof profileInclude> }>;
type ListedRow = Prisma.ProfileGetPayload<{
  include: ReturnType<typeof profileInclude>;
  omit: typeof personalOmitted;
}>;
type ClaimRow = ProfileRow['claims'][number];
type JobRow = Prisma.JobExperienceGetPayload<object>;

/** 'YYYY-MM-DD' of a DATE column (Prisma reads it as midnight UTC). */
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const dateOf = (day: string) => new Date(`${day}T00:00:00Z`);

/** The names behind the jobs' organization and division ids, from the read copies. */
async function placesOf(client: Client, jobs: readonly JobRow[]) {
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

function jobOf(row: JobRow, places: Places): Job {
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

function claimOf(row: ClaimRow): ClaimOnProfile {
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

function profileOf(row: ProfileRow, places: Places): Profile {
  const { jobs: _j, issues: _i, claims: _cl, createdAt: _c, updatedAt: _u, birthday, ...fields } = row;
  return { ...fields, birthday: birthday ? dayOf(birthday) : null, ...relationsOf(row, places) };
}

function listedProfileOf(row: ListedRow, places: Places): ListedProfile {
  const { jobs: _j, issues: _i, claims: _cl, createdAt: _c, updatedAt: _u, ...fields } = row;
  return { ...fields, ...relationsOf(row, places) };
}

async function profilesOf(client: Client, rows: ProfileRow[]): Promise<Profile[]> {
  const places = await placesOf(
    client,
    rows.flatMap((row) => row.jobs),
  );
  return rows.map((row) => profileOf(row, places));
}

async function listedProfilesOf(client: Client, rows: ListedRow[]): Promise<ListedProfile[]> {
  const places = await placesOf(
    client,
    rows.flatMap((row) => row.jobs),
  );
  return rows.map((row) => listedProfileOf(row, places));
}

/** The columns of a profile's fields as Prisma writes them. */
function profileData(fields: Partial<ProfileFields>): Prisma.ProfileUncheckedUpdateInput {
  const { birthday, ...rest } = fields;
  return {
    ...rest,
    ...(birthday === undefined ? {} : { birthday: birthday === null ? null : dateOf(birthday) }),
  };
}

function jobData(fields: JobFields) {
  return {
    ...fields,
    startDate: dateOf(fields.startDate),
    endDate: fields.endDate === null ? null : dateOf(fields.endDate),
  };
}

/**
 * Announces the profile as it is in this transaction, with the issue areas it covers (ADR 0012). The profile's
 * announcements take one lock first, so the one that reads later commits later: two writes at once (an issue
 * added while another is removed, or a rename) never leave the last one heard with a list missing the other's.
 */
export async function announceProfile(
  client: Prisma.TransactionClient,
  row: {
    profileId: number;
    userId: string | null;
    firstName: string;
    lastName: string;
    profilePicture: string | null;
  },
): Promise<void> {
  await client.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`profile.announce:${row.profileId}`}))::text`;
  const issues = await client.userIssue.findMany({
    where: { profileId: row.profileId },
    select: { issueId: true },
    orderBy: { issueId: 'asc' },
  });
  await publishChange(client, {
    kind: 'profile',
    profile_id: row.profileId,
    user_id: row.userId,
    first_name: row.firstName,
    last_name: row.lastName,
    profile_picture: row.profilePicture,
    issue_area_ids: issues.map((issue) => issue.issueId),
  });
}

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

const withCurrentJob = {
  jobs: { where: { currentJob: true }, orderBy: jobOrder, take: 1 },
  issues: { select: { issueId: true }, orderBy: { issueId: 'asc' } },
} satisfies Prisma.ProfileInclude;

function authorOf(row: Prisma.ProfileGetPayload<{ include: typeof withCurrentJob }>): Author {
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

export function prismaProfileRepository(
  prisma: PrismaClient,
  schema: string,
): ProfileRepository & JobRepository {
  // Prisma qualifies its own queries with the adapter's schema; raw queries must name it themselves.
  const table = (name: string) => Prisma.raw(`"${schema}"."${name}"`);

  const findProfile = async (profileId: number) => {
    const row = await prisma.profile.findUnique({ where: { profileId }, include: profileInclude(false) });
    return row ? ((await profilesOf(prisma, [row]))[0] ?? null) : null;
  };

  /**
   * Serializes a member's claims and profile creation (both take it first), so "owns nothing and claims nothing
   * yet" stays true until the transaction's write.
   */
  const lockMember = (tx: Prisma.TransactionClient, userId: string) =>
    tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`profile.member:${userId}`}))::text`;

  const hasPendingClaim = async (tx: Prisma.TransactionClient, userId: string) =>
    (await tx.profileClaim.count({ where: { userId, status: 'pending' } })) > 0;

  /** Locks the profile row while it still has `owner`; false when it is gone or changed owner. */
  const lockOwned = async (tx: Prisma.TransactionClient, profileId: number, owner: string | null) => {
    const rows = await tx.$queryRaw<{ profile_id: number }[]>`
      SELECT profile_id FROM ${table('profiles')}
      WHERE profile_id = ${profileId} AND user_id IS NOT DISTINCT FROM ${owner}
      FOR UPDATE`;
    return rows.length > 0;
  };

  /** Locks the profile of the job while it still has `owner`; the job's profile id, or null. */
  const lockJobOwner = async (tx: Prisma.TransactionClient, jobId: number, owner: string | null) => {
    const rows = await tx.$queryRaw<{ profile_id: number }[]>`
      SELECT p.profile_id FROM ${table('profiles')} p
      JOIN ${table('job_experiences')} j ON j.profile_id = p.profile_id
      WHERE j.job_id = ${jobId} AND p.user_id IS NOT DISTINCT FROM ${owner}
      FOR UPDATE OF p`;
    return rows[0]?.profile_id ?? null;
  };

  const jobWithPlaces = async (client: Client, row: JobRow) => jobOf(row, await placesOf(client, [row]));

  /**
   * Writes the profile row while it still has `owner` and announces the change; answers the profile as it is
   * after the commit. (Read outside the transaction: Prisma loads a profile's relations in parallel, which one
   * transaction's single connection would have to queue.)
   */
  const writeOwned = async (
    profileId: number,
    owner: string | null,
    data: Prisma.ProfileUncheckedUpdateInput,
    curation?: Curation,
  ): Promise<Profile | null> => {
    const written = await prisma.$transaction(async (tx) => {
      const { count } = await tx.profile.updateMany({ where: { profileId, userId: owner }, data });
      if (count === 0) return false;
      await recordCuration(tx, profileId, curation);
      await announceProfile(tx, await tx.profile.findUniqueOrThrow({ where: { profileId } }));
      return true;
    });
    return written ? findProfile(profileId) : null;
  };

  return {
    findProfile,

    async findOwnership(profileId) {
      const row = await prisma.profile.findUnique({
        where: { profileId },
        select: { profileId: true, userId: true, claims: { ...pendingClaim, select: { userId: true } } },
      });
      return row && { profileId, userId: row.userId, claimantId: row.claims[0]?.userId ?? null };
    },

    async recordOwnerEmailDomain(profileId, userId, emailDomain) {
      // Not an edit of the profile: its updated_at stays.
      const count = await prisma.$executeRaw`
        UPDATE ${table('profiles')} SET owner_email_domain = ${emailDomain}
        WHERE profile_id = ${profileId} AND user_id = ${userId}
          AND owner_email_domain IS DISTINCT FROM ${emailDomain}`;
      return count > 0;
    },

    async ownedOrClaimedBy(userId) {
      const owned = await prisma.profile.findUnique({ where: { userId }, select: { profileId: true } });
      if (owned) return { userId, profileId: owned.profileId, claimPending: false };
      const claim = await prisma.profileClaim.findFirst({
        where: { userId, status: 'pending' },
        select: { profileId: true },
      });
      return claim && { userId, profileId: claim.profileId, claimPending: true };
    },

    async listDirectoryPage(after, limit) {
      const rows = await prisma.profile.findMany({
        include: profileInclude(true),
        omit: personalOmitted,
        orderBy: [{ lastName: 'asc' }, { firstName: 'asc' }, { profileId: 'asc' }],
        ...(after === null ? {} : { cursor: { profileId: after }, skip: 1 }),
        take: limit,
      });
      return listedProfilesOf(prisma, rows);
    },

    async findUnclaimedMatches(firstName, lastName, email) {
      const ids = await prisma.$queryRaw<{ profile_id: number }[]>`
        SELECT p.profile_id FROM ${table('profiles')} p
        WHERE p.user_id IS NULL
          AND lower(p.first_name) = lower(${firstName})
          AND lower(p.last_name) = lower(${lastName})
          AND lower(p.work_email) = lower(${email})
          AND NOT EXISTS (
            SELECT 1 FROM ${table('profile_claims')} c WHERE c.profile_id = p.profile_id AND c.status = 'pending'
          )
        ORDER BY p.profile_id`;
      if (ids.length === 0) return [];
      const rows = await prisma.profile.findMany({
        where: { profileId: { in: ids.map((row) => row.profile_id) } },
        include: profileInclude(false),
        omit: personalOmitted,
        orderBy: { profileId: 'asc' },
      });
      return listedProfilesOf(prisma, rows);
    },

    async createProfile(userId, fields) {
      let created: number | 'claim_waiting';
      try {
        created = await prisma.$transaction(async (tx) => {
          await lockMember(tx, userId);
          if (await hasPendingClaim(tx, userId)) return 'claim_waiting';
          const row = await tx.profile.create({
            data: { ...(profileData(fields) as Prisma.ProfileUncheckedCreateInput), userId },
          });
          await announceProfile(tx, row);
          return row.profileId;
        });
      } catch (error) {
        // The account owns a profile already (one per account, by the unique index).
        if (isUniqueViolation(error)) return { kind: 'owns_one' };
        throw error;
      }
      if (created === 'claim_waiting') return { kind: created };
      const profile = await findProfile(created);
      if (!profile) throw new Error(`profile ${created} vanished after it was created`);
      return { kind: 'created', profile };
    },

    ...prismaHistoryReads(prisma),

    updateProfile: (profileId, owner, changes, curation) =>
      writeOwned(profileId, owner, profileData(changes), curation),

    setBio: (profileId, owner, bio, curation) => writeOwned(profileId, owner, { userBio: bio }, curation),

    setPicture: (profileId, owner, url, curation) =>
      prisma.$transaction(async (tx) => {
        // The lock makes "read the previous picture, write the new one" one step, so two uploads at once each
        // remove the picture they replaced.
        const [row] = await tx.$queryRaw<{ profile_picture: string | null }[]>`
          SELECT profile_picture FROM ${table('profiles')}
          WHERE profile_id = ${profileId} AND user_id IS NOT DISTINCT FROM ${owner}
          FOR UPDATE`;
        if (!row) return null;
        const updated = await tx.profile.update({ where: { profileId }, data: { profilePicture: url } });
        await announceProfile(tx, updated);
        await recordCuration(tx, profileId, curation);
        return { previous: row.profile_picture };
      }),

    async claimProfile(profileId, claimant, confirmNow) {
      const { userId } = claimant;
      const outcome = await prisma.$transaction(async (tx) => {
        await lockMember(tx, userId);
        // The row lock orders claims of one profile: the second finds the first's claim.
        const [target] = await tx.$queryRaw<{ user_id: string | null }[]>`
          SELECT user_id FROM ${table('profiles')} WHERE profile_id = ${profileId} FOR UPDATE`;
        if (!target) return 'not_found';
        const ownsOne = (await tx.profile.count({ where: { userId } })) > 0;
        if (ownsOne || (await hasPendingClaim(tx, userId))) return 'owner_has_one';
        const waiting = await tx.profileClaim.count({ where: { profileId, status: 'pending' } });
        if (target.user_id !== null || waiting > 0) return 'taken';
        await tx.profileClaim.create({
          data: {
            profileId,
            userId,
            claimantFirstName: claimant.firstName,
            claimantLastName: claimant.lastName,
            claimantEmail: claimant.email,
            ...(confirmNow ? { status: 'confirmed', decidedAt: new Date() } : { status: 'pending' }),
          },
        });
        if (confirmNow)
          await announceProfile(
            tx,
            await tx.profile.update({
              where: { profileId },
              data: { userId, ownerEmailDomain: emailDomainOf(claimant.email) },
            }),
          );
        return 'claimed';
      });
      if (outcome !== 'claimed') return { kind: outcome };
      const profile = await findProfile(profileId);
      return profile ? { kind: 'claimed', profile } : { kind: 'not_found' };
    },

    async findClaimant(claimId) {
      const claim = await prisma.profileClaim.findUnique({ where: { claimId }, select: { userId: true } });
      return claim?.userId ?? null;
    },

    async listPendingClaims() {
      const rows = await prisma.profileClaim.findMany({
        where: { status: 'pending' },
        include: { profile: { select: { firstName: true, lastName: true, workEmail: true } } },
        orderBy: [{ createdAt: 'asc' }, { claimId: 'asc' }],
      });
      return rows.map(({ profile, ...claim }) => ({
        claimId: claim.claimId,
        profileId: claim.profileId,
        userId: claim.userId,
        ...profile,
        createdAt: claim.createdAt,
        claimant: claimOf(claim).claimant,
      }));
    },

    decideClaim: (claimId, { status, giveOwnership }, curation) =>
      prisma.$transaction(async (tx) => {
        const decidedAt = new Date();
        // Only a pending claim changes: of two decisions at once, the second finds it decided.
        const [claim] = await tx.profileClaim.updateManyAndReturn({
          where: { claimId, status: 'pending' },
          data: { status, decidedAt },
          select: { profileId: true, userId: true, claimantEmail: true },
        });
        if (!claim) {
          const exists = await tx.profileClaim.findUnique({ where: { claimId }, select: { claimId: true } });
          return { kind: exists ? 'decided_before' : 'not_found' } as const;
        }
        if (giveOwnership) {
          // A pending claim keeps the profile unowned and every other claim off it, so nobody owns it now.
          const { count } = await tx.profile.updateMany({
            where: { profileId: claim.profileId, userId: null },
            data: { userId: claim.userId, ownerEmailDomain: emailDomainOf(claim.claimantEmail) },
          });
          if (count === 0)
            throw new Error(`profile ${claim.profileId} gained an owner under a pending claim`);
          await announceProfile(
            tx,
            await tx.profile.findUniqueOrThrow({ where: { profileId: claim.profileId } }),
          );
        }
        if (curation) {
          const names = await tx.profileClaim.findUniqueOrThrow({
            where: { claimId },
            select: { claimantFirstName: true, claimantLastName: true },
          });
          await recordCuration(
            tx,
            claim.profileId,
            curation({ firstName: names.claimantFirstName, lastName: names.claimantLastName }),
          );
        }
        return {
          kind: 'decided',
          claim: { claimId, profileId: claim.profileId, status, decidedAt },
        } as const;
      }),

    async isPictureInUse(url) {
      return (await prisma.profile.count({ where: { profilePicture: url } })) > 0;
    },

    async picturesInUse(urls) {
      const rows = await prisma.profile.findMany({
        where: { profilePicture: { in: [...urls] } },
        select: { profilePicture: true },
        distinct: ['profilePicture'],
      });
      return rows.flatMap((row) => (row.profilePicture === null ? [] : [row.profilePicture]));
    },

    async colleagues(at) {
      const rows = await prisma.jobExperience.findMany({
        where: { currentJob: true, ...at },
        include: {
          profile: {
            select: {
              firstName: true,
              lastName: true,
              profilePicture: true,
              otherPhone: true,
              workEmail: true,
            },
          },
        },
        orderBy: [{ profileId: 'asc' }, { startDate: 'desc' }, { jobId: 'desc' }],
      });
      // One entry per profile: the latest started of its current jobs there.
      const latest = rows.filter((row, i) => i === 0 || rows[i - 1]?.profileId !== row.profileId);
      const { divisions } = await placesOf(prisma, latest);
      return latest.map(
        (row): Colleague => ({
          profileId: row.profileId,
          title: row.title,
          city: row.city,
          state: row.state,
          division: row.divisionId === null ? null : (divisions.get(row.divisionId) ?? null),
          ...row.profile,
        }),
      );
    },

    async authorByUser(userId) {
      const row = await prisma.profile.findUnique({ where: { userId }, include: withCurrentJob });
      return row ? authorOf(row) : null;
    },

    async authorsByIds(profileIds) {
      const rows = await prisma.profile.findMany({
        where: { profileId: { in: [...profileIds] } },
        include: withCurrentJob,
        orderBy: { profileId: 'asc' },
      });
      return rows.map(authorOf);
    },

    async listAuthors(afterProfileId, limit) {
      const rows = await prisma.profile.findMany({
        where: { profileId: { gt: afterProfileId }, userId: { not: null } },
        include: withCurrentJob,
        orderBy: { profileId: 'asc' },
        take: limit,
      });
      return rows.map(authorOf);
    },

    async findJob(jobId) {
      const row = await prisma.jobExperience.findUnique({
        where: { jobId },
        include: {
          profile: {
            select: { profileId: true, userId: true, claims: { ...pendingClaim, select: { userId: true } } },
          },
        },
      });
      if (!row) return null;
      const { profile, ...job } = row;
      return {
        job: await jobWithPlaces(prisma, job),
        owner: {
          profileId: profile.profileId,
          userId: profile.userId,
          claimantId: profile.claims[0]?.userId ?? null,
        },
      };
    },

    addJob: (profileId, owner, fields, curation) =>
      prisma.$transaction(async (tx) => {
        if (!(await lockOwned(tx, profileId, owner))) return null;
        const row = await tx.jobExperience.create({ data: { ...jobData(fields), profileId } });
        await recordCuration(tx, profileId, curation);
        return jobWithPlaces(tx, row);
      }),

    updateJob: (jobId, owner, fields, curation) =>
      prisma.$transaction(async (tx) => {
        const profileId = await lockJobOwner(tx, jobId, owner);
        if (profileId === null) return null;
        const row = await tx.jobExperience.update({ where: { jobId }, data: jobData(fields) });
        await recordCuration(tx, profileId, curation);
        return jobWithPlaces(tx, row);
      }),

    deleteJob: (jobId, owner, guard, curation) =>
      prisma.$transaction(async (tx) => {
        // With the profile locked, "count its jobs, then delete one" is one step: two deletes at once never
        // leave a profile without a position.
        const profileId = await lockJobOwner(tx, jobId, owner);
        if (profileId === null) return false;
        const row = await tx.jobExperience.findUniqueOrThrow({ where: { jobId } });
        guard(await jobWithPlaces(tx, row), await tx.jobExperience.count({ where: { profileId } }));
        await tx.jobExperience.delete({ where: { jobId } });
        await recordCuration(tx, profileId, curation);
        return true;
      }),
  };
}
