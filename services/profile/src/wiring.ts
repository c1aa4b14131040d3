// Builds the profile service's rules and adapters from its configuration: Prisma on its own schema, the read
// copies of the org service's names and the org service behind them, the image pipeline and object store for
// pictures, the people directory's search index, and members' own data (export, deletion). Shared by the
// composition root and the scale seed.
import { createObjectStore, objectStoreConfigFrom, processImage } from '@rotunda/images';
import { searchIndexFromConfig } from '@rotunda/search';
import {
  connectReadDriver,
  idempotencyKeys,
  type Logger,
  NO_SEARCH_OUTBOX,
  prismaAdapter,
  searchOutbox,
} from '@rotunda/service-kit';
import { PrismaClient } from '../generated/prisma/client.ts';
import { grpcOrgDirectory } from './adapters/grpc-clients.ts';
import { prismaContactRepository } from './adapters/prisma-contact-repository.ts';
import { prismaDirectoryQuota } from './adapters/prisma-directory-quota.ts';
import { prismaDirectoryRepository } from './adapters/prisma-directory-repository.ts';
import { prismaIssueRepository } from './adapters/prisma-issue-repository.ts';
import { prismaJobRepository } from './adapters/prisma-job-repository.ts';
import { prismaMemberData } from './adapters/prisma-member-data.ts';
import { prismaOrgCopy } from './adapters/prisma-org-copy.ts';
import { prismaProfileRepository } from './adapters/prisma-profile-repository.ts';
import type { ProfileConfig } from './config.ts';
import { createClaimService } from './domain/claim-service.ts';
import { createContacts } from './domain/contacts.ts';
import { createPeopleDirectory, PEOPLE_INDEX } from './domain/directory.ts';
import { createIssueService } from './domain/issue-service.ts';
import { createJobService } from './domain/job-service.ts';
import { createMemberData } from './domain/member-data.ts';
import { createOrgCopy } from './domain/org-copy.ts';
import { createPeopleLookups } from './domain/people-lookups.ts';
import { createProfileService } from './domain/profile-service.ts';

export async function wireProfile(config: ProfileConfig, logger: Logger) {
  const prisma = new PrismaClient({
    adapter: prismaAdapter(config.DATABASE_URL, config.DATABASE_SCHEMA, config.DATABASE_POOL_SIZE),
  });
  // With Elasticsearch, every write that changes a directory document notes it in the outbox in its transaction.
  const outbox = config.ELASTICSEARCH_URL
    ? searchOutbox(config.DATABASE_SCHEMA, config.SEARCH_INDEX)
    : NO_SEARCH_OUTBOX;
  const repository = prismaProfileRepository(prisma, config.DATABASE_SCHEMA, outbox);
  const index = outbox.clearing(prisma, searchIndexFromConfig(config, PEOPLE_INDEX, logger));
  const readDriver = await connectReadDriver(
    config.DATABASE_URL,
    config.DATABASE_READ_POOL_SIZE,
    'profile.read',
  );
  const directory = createPeopleDirectory({
    repository: prismaDirectoryRepository(prisma, config.DATABASE_SCHEMA, readDriver),
    index,
  });
  const orgDirectory = grpcOrgDirectory(config.ORG_SERVICE_ADDR);
  const orgCopy = createOrgCopy({
    copy: prismaOrgCopy(prisma, config.DATABASE_SCHEMA),
    directory: orgDirectory,
    onRenamed: (renamed) => directory.placesRenamed(renamed),
  });
  const store = createObjectStore(objectStoreConfigFrom(config));
  const quota = prismaDirectoryQuota(prisma, config.DATABASE_SCHEMA);
  const profiles = createProfileService({
    profiles: repository,
    quota,
    processImage,
    store,
    logger,
    directory,
  });
  const claims = createClaimService({ profiles: repository, directory });
  const lookups = createPeopleLookups({ profiles: repository });
  const jobs = createJobService({
    profiles: repository,
    jobs: prismaJobRepository(prisma, config.DATABASE_SCHEMA, outbox),
    orgs: orgCopy,
    directory,
  });
  const issues = createIssueService({
    issues: prismaIssueRepository(prisma, outbox),
    profiles: repository,
    directory,
  });
  const contacts = createContacts({
    directory,
    contacts: prismaContactRepository(prisma, config.DATABASE_SCHEMA),
    quota,
  });
  const members = createMemberData({
    data: prismaMemberData(prisma, config.DATABASE_SCHEMA, outbox),
    directory,
  });
  // The creates' Idempotency-Keys (ADR 0046).
  const keys = idempotencyKeys(prisma, config.DATABASE_SCHEMA);
  const close = async () => {
    orgDirectory.close();
    await index.close();
    await readDriver.dispose();
    await prisma.$disconnect();
  };
  return {
    prisma,
    orgDirectory,
    orgCopy,
    store,
    index,
    directory,
    profiles,
    claims,
    lookups,
    jobs,
    issues,
    contacts,
    members,
    keys,
    close,
  };
}
