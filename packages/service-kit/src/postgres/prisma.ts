// Prisma Client set-up per service: the pg driver adapter pinned to the service's own schema.
import { PrismaPg } from '@prisma/adapter-pg';
import { assertSchemaName } from './migrate.ts';

export function prismaAdapter(databaseUrl: string, schema: string, poolSize = 10): PrismaPg {
  return new PrismaPg({ connectionString: databaseUrl, max: poolSize }, { schema: assertSchemaName(schema) });
}
