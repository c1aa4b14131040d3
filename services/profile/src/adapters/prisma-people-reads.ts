// The people other screens and services look up, in the profile schema through Prisma: colleagues (one entry per
// profile, its latest started current job at the place) and posts' authors with their latest current job and the
// issue areas they cover. Personal contact details are never read.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Colleague } from '../domain/model.ts';
import type { ProfileRepository } from '../domain/ports.ts';
import { authorOf, placesOf, withCurrentJob } from './prisma-profile-rows.ts';

export function prismaPeopleReads(
  prisma: PrismaClient,
): Pick<ProfileRepository, 'colleagues' | 'authorByUser' | 'authorsByIds' | 'listAuthors'> {
  return {
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
  };
}
