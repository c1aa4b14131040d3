// The feed version as a PostgreSQL sequence in the post schema: nextval is atomic across replicas and outside any
// transaction, and reading last_value is one cheap row.
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { FeedVersionStore } from '../domain/ports.ts';

export function postgresFeedVersionStore(prisma: PrismaClient, schema: string): FeedVersionStore {
  const sequence = `"${schema}"."feed_version"`;
  return {
    async bump() {
      const [row] = await prisma.$queryRaw<{ version: bigint }[]>`
        SELECT nextval(${sequence}::regclass) AS version`;
      return Number(row?.version);
    },
    async current() {
      const [row] = await prisma.$queryRaw<{ version: bigint }[]>`
        SELECT last_value AS version FROM ${Prisma.raw(sequence)}`;
      return Number(row?.version);
    },
  };
}
