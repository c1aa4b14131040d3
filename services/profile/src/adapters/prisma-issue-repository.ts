// Issue areas and the issues profiles cover, in the profile schema through Prisma. Uniqueness (one issue area
// per name key, one entry per profile and issue) is the database's, so two members at once make no twins. Each
// change of a profile's issues announces the profile with its issue areas in the change's transaction (ADR 0012).
import { NO_SEARCH_OUTBOX, type SearchOutbox } from '@rotunda/service-kit';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { IssueArea } from '../domain/model.ts';
import type { IssueRepository } from '../domain/ports.ts';
import { recordCuration } from './prisma-history.ts';
import { announceProfile, isUniqueViolation } from './prisma-profile-sql.ts';

const issueAreaOf = (row: { issueId: number; issueName: string }): IssueArea => ({
  issueId: row.issueId,
  issueName: row.issueName,
});

export function prismaIssueRepository(
  prisma: PrismaClient,
  outbox: SearchOutbox = NO_SEARCH_OUTBOX,
): IssueRepository {
  return {
    async listIssueAreas() {
      // The key is the name lower-cased: alphabetical whatever the capitals.
      const rows = await prisma.issueArea.findMany({ orderBy: [{ issueKey: 'asc' }] });
      return rows.map(issueAreaOf);
    },

    async findIssueArea(issueId) {
      const row = await prisma.issueArea.findUnique({ where: { issueId } });
      return row ? issueAreaOf(row) : null;
    },

    async addIssueAreaUnlessKeyed(name, key) {
      try {
        const row = await prisma.issueArea.create({ data: { issueName: name, issueKey: key } });
        return { issueArea: issueAreaOf(row), created: true };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const row = await prisma.issueArea.findUniqueOrThrow({ where: { issueKey: key } });
        return { issueArea: issueAreaOf(row), created: false };
      }
    },

    async addUserIssue(profileId, issueId, curation) {
      try {
        const row = await prisma.$transaction(async (tx) => {
          const created = await tx.userIssue.create({
            data: { profileId, issueId },
            include: { issueArea: true },
          });
          await recordCuration(tx, profileId, curation);
          await announceProfile(tx, await tx.profile.findUniqueOrThrow({ where: { profileId } }), outbox);
          return created;
        });
        return { id: row.id, profileId, issueId, issueArea: issueAreaOf(row.issueArea) };
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    findUserIssue: (id) =>
      prisma.userIssue.findUnique({ where: { id }, select: { id: true, profileId: true, issueId: true } }),

    deleteUserIssue: (id, curation) =>
      prisma.$transaction(async (tx) => {
        const deleted = await tx.userIssue.findUnique({ where: { id }, select: { profileId: true } });
        if (!deleted || (await tx.userIssue.deleteMany({ where: { id } })).count === 0) return false;
        await recordCuration(tx, deleted.profileId, curation);
        await announceProfile(
          tx,
          await tx.profile.findUniqueOrThrow({ where: { profileId: deleted.profileId } }),
          outbox,
        );
        return true;
      }),
  };
}
