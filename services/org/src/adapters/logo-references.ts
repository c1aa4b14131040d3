// Which logos organizations show, for the sweep of uploads no organization took (@rotunda/images): of the
// objects' keys the sweep asks about, the ones whose URL is an organization's logo.
import { mediaKeyOf, mediaUrl } from '@rotunda/images';
import type { PrismaClient } from '../../generated/prisma/client.ts';

export function prismaLogosInUse(prisma: PrismaClient) {
  return async (keys: readonly string[]): Promise<string[]> => {
    if (keys.length === 0) return [];
    const rows = await prisma.organization.findMany({
      where: { logo: { in: keys.map(mediaUrl) } },
      select: { logo: true },
      distinct: ['logo'],
    });
    return rows.flatMap((row) => (row.logo === null ? [] : (mediaKeyOf(row.logo) ?? [])));
  };
}
