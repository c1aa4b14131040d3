// The org service as the tests run it: a fresh database migrated, the Postgres search index, an S3 endpoint
// (s3rver), the service's parts wired as its composition root wires them, served over real gRPC, and a client
// that calls one RPC as a member, a contributor or nobody (an internal call).
import { credentials } from '@grpc/grpc-js';
import { createObjectStore, processImage } from '@rotunda/images';
import { startTestS3 } from '@rotunda/images/testing';
import { OrgServiceClient, OrgServiceService } from '@rotunda/protos/org';
import { createPostgresSearchIndex } from '@rotunda/search';
import { type Caller, createLogger, migrate, prismaAdapter, startGrpcServer } from '@rotunda/service-kit';
import { createTestDatabase, rpcCalls, testCallers } from '@rotunda/service-kit/testing';
import { PrismaClient } from '../../generated/prisma/client.ts';
import { grpcOrgService } from '../../src/adapters/grpc-org-service.ts';
import { prismaOrganizationRepository } from '../../src/adapters/prisma-organization-repository.ts';
import { createOrgService } from '../../src/domain/org-service.ts';
import { GROUPS } from '../../src/domain/organization.ts';
import { createOrganizationSearch, ORGANIZATION_INDEX } from '../../src/domain/organization-search.ts';

export const MEMBER: Caller = { userId: 'member-1', email: 'member@demo.ca.gov', roles: [] };
export const CONTRIBUTOR: Caller = {
  userId: 'concierge-1',
  email: 'concierge@demo.ca.gov',
  roles: ['contributor'],
};

/**
 * Starts the service on a new database named after `name`; `beforeSync` runs before the search index is brought
 * in step (the demo seed, say).
 */
export async function startOrgUnderTest(
  name: string,
  beforeSync?: (parts: {
    repository: ReturnType<typeof prismaOrganizationRepository>;
    store: ReturnType<typeof createObjectStore>;
  }) => Promise<unknown>,
) {
  const logger = createLogger(name, 'silent');
  const root = new URL('../..', import.meta.url).pathname;
  const databaseUrl = await createTestDatabase();
  await migrate({ databaseUrl, schema: 'org', migrationsDir: `${root}prisma/migrations`, logger });
  const prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'org') });
  const repository = prismaOrganizationRepository(prisma, 'org');
  await repository.ensureGroups(GROUPS);
  const index = createPostgresSearchIndex({
    databaseUrl,
    schema: 'org_search',
    index: 'organizations',
    ...ORGANIZATION_INDEX,
  });
  const s3 = await startTestS3(name);
  const store = createObjectStore(s3.config);
  await store.ensureBucket();
  const search = createOrganizationSearch({ repository, index });
  const org = createOrgService({ repository, search, processImage, store, logger });
  await beforeSync?.({ repository, store });
  await org.syncSearchIndex();
  const server = await startGrpcServer({
    callers: testCallers.verifier,
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [
      {
        name: 'rotunda.org.v1.OrgService',
        definition: OrgServiceService,
        implementation: grpcOrgService(org, logger),
      },
    ],
  });
  const client = new OrgServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), {
    interceptors: [testCallers.signing],
    'grpc.max_send_message_length': 16 * 1024 * 1024,
  });

  const rpc = rpcCalls(OrgServiceService, () => client);

  const close = async () => {
    client.close();
    await server.shutdown();
    await index.close();
    await prisma.$disconnect();
    await s3.stop();
  };
  return { logger, root, databaseUrl, prisma, repository, index, store, org, rpc, close };
}

export type OrgUnderTest = Awaited<ReturnType<typeof startOrgUnderTest>>;
