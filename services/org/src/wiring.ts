// Builds the org service's rules and adapters from its configuration; shared by the composition root and the
// scale seed, so both write through the same repository and search index.
import { createObjectStore, objectStoreConfigFrom, processImage } from '@rotunda/images';
import { type SearchIndex, searchIndexFromConfig } from '@rotunda/search';
import {
  connectReadDriver,
  type Logger,
  NO_SEARCH_OUTBOX,
  prismaAdapter,
  searchOutbox,
} from '@rotunda/service-kit';
import { PrismaClient } from '../generated/prisma/client.ts';
import { prismaOrganizationRepository } from './adapters/prisma-organization-repository.ts';
import type { OrgConfig } from './config.ts';
import { createOrgService } from './domain/org-service.ts';
import { createOrganizationSearch, ORGANIZATION_INDEX } from './domain/organization-search.ts';

/** The organization index of the configured engine (also what the benchmarks and seeds count). */
export const searchIndexFor = (config: OrgConfig, logger?: Logger): SearchIndex =>
  searchIndexFromConfig(config, ORGANIZATION_INDEX, logger);

export async function wireOrg(config: OrgConfig, logger: Logger) {
  const prisma = new PrismaClient({
    adapter: prismaAdapter(config.DATABASE_URL, config.DATABASE_SCHEMA, config.DATABASE_POOL_SIZE),
  });
  const readDriver = await connectReadDriver(config.DATABASE_URL, config.DATABASE_READ_POOL_SIZE, 'org.read');
  // With Elasticsearch, every write that changes an organization's document notes it in the outbox in its transaction.
  const outbox = config.ELASTICSEARCH_URL
    ? searchOutbox(config.DATABASE_SCHEMA, config.SEARCH_INDEX)
    : NO_SEARCH_OUTBOX;
  const repository = prismaOrganizationRepository(prisma, config.DATABASE_SCHEMA, readDriver, outbox);
  const index = outbox.clearing(prisma, searchIndexFor(config, logger));
  const store = createObjectStore(objectStoreConfigFrom(config));
  const search = createOrganizationSearch({ repository, index });
  const org = createOrgService({ repository, search, processImage, store, logger });
  const close = async () => {
    await index.close();
    await readDriver.dispose();
    await prisma.$disconnect();
  };
  return { prisma, repository, index, store, org, close };
}
