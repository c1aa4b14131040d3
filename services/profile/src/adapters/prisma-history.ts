// The profile service's curation history in the profile schema through Prisma: an entry written inside the
// transaction of the change it tells of, and the history read back newest first. Also the owners' names the
// history shows for each actor.
import { historyEntryOf, historyRecordOf } from '@rotunda/service-kit';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import type { Curation, HistoryAction, HistoryEntry } from '../domain/history.ts';
import type { Author } from '../domain/model.ts';

/** Writes the change's history entry in its transaction; nothing for no curation or no change. */
export async function recordCuration(
  tx: Prisma.TransactionClient,
  profileId: number,
  curation: Curation | undefined,
): Promise<void> {
  const recorded = historyRecordOf(curation);
  if (!recorded) return;
  await tx.profileHistory.create({
    data: { profileId, ...recorded, changes: recorded.changes as unknown as Prisma.InputJsonValue },
  });
}

export function prismaHistoryReads(prisma: PrismaClient) {
  return {
    async historyOf(profileId: number, beforeId: number | null, limit: number): Promise<HistoryEntry[]> {
      const rows = await prisma.profileHistory.findMany({
        where: { profileId, ...(beforeId === null ? {} : { historyId: { lt: BigInt(beforeId) } }) },
        orderBy: { historyId: 'desc' },
        take: limit,
      });
      return rows.map((row) => historyEntryOf<HistoryAction>(row));
    },

    async authorsByUsers(userIds: readonly string[]): Promise<Author[]> {
      if (userIds.length === 0) return [];
      const rows = await prisma.profile.findMany({
        where: { userId: { in: [...userIds] } },
        select: { profileId: true, userId: true, firstName: true, lastName: true, profilePicture: true },
      });
      return rows.map((row) => ({ ...row, organizationId: null, divisionId: null }));
    },
  };
}
