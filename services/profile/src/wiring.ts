// Builds the profile service's rules and adapters from its configuration: Prisma on its own schema, the read
// copies of the org service's names and the org service behind them, the image pipeline and object store for
// pictures.
import { createObjectStore, objectStoreConfigFrom, processImage } from '@rotunda/images';
import { type Logger, prismaAdapter } from '@rotunda/service-kit';
import { PrismaClient } from '../generated/prisma/client.ts';
import { grpcOrgDirectory } from './adapters/grpc-clients.ts';
import { prismaIssueRepository } from './adapters/prisma-issue-repository.ts';
import { prismaOrgCopy } from './adapters/prisma-org-copy.ts';
import { prismaProfileRepository } from './adapters/prisma-profile-repository.ts';
import type { ProfileConfig } from './config.ts';
import { createIssueService } from './domain/issue-service.ts';
import { createJobService } from './domain/job-service.ts';
import { createOrgCopy } from './domain/org-copy.ts';
import { createProfileService } from './domain/profile-service.ts';

export function wireProfile(config: ProfileConfig, logger: Logger) {
  const prisma = new PrismaClient({ adapter: prismaAdapter(config.DATABASE_URL, config.DATABASE_SCHEMA) });
  const repository = prismaProfileRepository(prisma, config.DATABASE_SCHEMA);
  const directory = grpcOrgDirectory(config.ORG_SERVICE_ADDR);
  const orgCopy = createOrgCopy({ copy: prismaOrgCopy(prisma, config.DATABASE_SCHEMA), directory });
  const store = createObjectStore(objectStoreConfigFrom(config));
  const profiles = createProfileService({ profiles: repository, processImage, store, logger });
  const jobs = createJobService({ profiles: repository, jobs: repository, orgs: orgCopy });
  const issues = createIssueService({ issues: prismaIssueRepository(prisma), profiles: repository });
  const close = async () => {
    directory.close();
    await prisma.$disconnect();
  };
  return { prisma, directory, orgCopy, store, profiles, jobs, issues, close };
}
