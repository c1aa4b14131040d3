// Builds the org service's rules and adapters from its configuration; shared by the composition root and the
// scale seed, so both write through the same repository and search index.
import { createObjectStore, objectStoreConfigFrom, processImage } from '@rotunda/images';
import { createElasticsearchIndex, createPostgresSearchIndex, type SearchIndex } from '@rotunda/search';
import { type Logger, prismaAdapter } from '@rotunda/service-kit';
import { PrismaClient } from '../generated/prisma/client.ts';
import {
  connectReadDriver,
  prismaOrganizationRepository,
} from './adapters/prisma-organization-repository.ts';
import type { OrgConfig } from './config.ts';
import { createOrgService, ORGANIZATION_INDEX } from './domain/org-service.ts';

export function searchIndexFor(config: OrgConfig): SearchIndex {
  return config.ELASTICSEARCH_URL
    ? createElasticsearchIndex({
        node: config.ELASTICSEARCH_URL,
        index: config.SEARCH_INDEX,
        // Organization writes are rare and a member expects a renamed organization to be found at once.
        refresh: true,
        ...ORGANIZATION_INDEX,
      })
    : createPostgresSearchIndex({
        databaseUrl: config.DATABASE_URL,
        schema: config.SEARCH_SCHEMA,
        index: config.SEARCH_INDEX,
        ...ORGANIZATION_INDEX,
      });
}

/**
 * Connections for the list's hot read, besides Prisma Client's pool: as many as the search index's pool has, so
 * list calls running at once wait on neither step.
 */
const READ_POOL_SIZE = 10;

export async function wireOrg(config: OrgConfig, logger: Logger) {
  const prisma = new PrismaClient({ adapter: prismaAdapter(config.DATABASE_URL, config.DATABASE_SCHEMA) });
  const readDriver = await connectReadDriver(config.DATABASE_URL, READ_POOL_SIZE);
  const repository = prismaOrganizationRepository(prisma, config.DATABASE_SCHEMA, readDriver);
  const index = searchIndexFor(config);
  const store = createObjectStore(objectStoreConfigFrom(config));
  const org = createOrgService({ repository, index, processImage, store, logger });
  const close = async () => {
    await index.close();
    await readDriver.dispose();
    await prisma.$disconnect();
  };
  return { prisma, repository, index, store, org, close };
}
