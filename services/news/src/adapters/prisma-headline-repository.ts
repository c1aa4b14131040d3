// Stores headlines in the news schema through Prisma; the url's unique index de-duplicates.

import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { HeadlineRepository } from '../domain/ports.ts';

export function prismaHeadlineRepository(prisma: PrismaClient): HeadlineRepository {
  return {
    async addNew(headlines) {
      if (headlines.length === 0) return 0;
      const { count } = await prisma.headline.createMany({ data: [...headlines], skipDuplicates: true });
      return count;
    },
    async latest(limit) {
      const rows = await prisma.headline.findMany({ orderBy: { createdAt: 'desc' }, take: limit });
      return rows.map(({ title, snippet, url, logo, publication, createdAt }) => ({
        title,
        snippet,
        url,
        logo,
        publication,
        createdAt,
      }));
    },
  };
}
