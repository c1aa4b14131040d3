// Jobs in the profile schema through Prisma, with the organization and division names taken from the read copies.
// Each write happens only while the job's profile still has the owner the rules checked, with that profile row
// locked; its curation history is written in the same transaction.
import { markCreated, NO_SEARCH_OUTBOX, type SearchOutbox } from '@rotunda/service-kit';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import type { JobRepository } from '../domain/ports.ts';
import { recordCuration } from './prisma-history.ts';
import { type Client, type JobRow, jobData, jobOf, pendingClaim, placesOf } from './prisma-profile-rows.ts';
import { tableOf } from './prisma-profile-sql.ts';

/** `outbox` notes each job change, which changes its profile's directory document, in its transaction. */
export function prismaJobRepository(
  prisma: PrismaClient,
  schema: string,
  outbox: SearchOutbox = NO_SEARCH_OUTBOX,
): JobRepository {
  const table = tableOf(schema);

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

  return {
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
        await outbox.record(tx, [profileId]);
        await markCreated(tx, row.jobId);
        return jobWithPlaces(tx, row);
      }),

    updateJob: (jobId, owner, fields, curation) =>
      prisma.$transaction(async (tx) => {
        const profileId = await lockJobOwner(tx, jobId, owner);
        if (profileId === null) return null;
        const row = await tx.jobExperience.update({ where: { jobId }, data: jobData(fields) });
        await recordCuration(tx, profileId, curation);
        await outbox.record(tx, [profileId]);
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
        await outbox.record(tx, [profileId]);
        return true;
      }),
  };
}
