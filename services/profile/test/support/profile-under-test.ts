// The profile service as the tests run it: a fresh database migrated, an S3 endpoint (s3rver), a stand-in org
// service on real gRPC, the people directory on an in-memory copy of the Postgres index, the service's parts wired
// as its composition root wires them, served over real gRPC, and a client that calls one RPC as a member, a
// contributor or nobody (an internal call).
import { credentials } from '@grpc/grpc-js';
import { ensureEventTables } from '@rotunda/events';
import { createObjectStore, processImage } from '@rotunda/images';
import { startTestS3 } from '@rotunda/images/testing';
import { ProfileServiceClient, ProfileServiceService } from '@rotunda/protos/profile';
import { searchIndexFromConfig } from '@rotunda/search';
import {
  connectReadDriver,
  createLogger,
  createPostgresProbe,
  idempotencyKeys,
  type Logger,
  migrate,
  prismaAdapter,
  type ReadDriver,
  type StartGrpcServerOptions,
  startGrpcServer,
} from '@rotunda/service-kit';
import { createTestDatabase, rpcCalls, testCallers } from '@rotunda/service-kit/testing';
import { PrismaClient } from '../../generated/prisma/client.ts';
import { grpcOrgDirectory } from '../../src/adapters/grpc-clients.ts';
import { grpcProfileService } from '../../src/adapters/grpc-profile-service.ts';
import { prismaContactRepository } from '../../src/adapters/prisma-contact-repository.ts';
import { prismaDirectoryQuota } from '../../src/adapters/prisma-directory-quota.ts';
import { prismaDirectoryRepository } from '../../src/adapters/prisma-directory-repository.ts';
import { prismaIssueRepository } from '../../src/adapters/prisma-issue-repository.ts';
import { prismaJobRepository } from '../../src/adapters/prisma-job-repository.ts';
import { prismaMemberData } from '../../src/adapters/prisma-member-data.ts';
import { prismaOrgCopy } from '../../src/adapters/prisma-org-copy.ts';
import { prismaProfileRepository } from '../../src/adapters/prisma-profile-repository.ts';
import { PROFILE_EVENTS } from '../../src/adapters/profile-events.ts';
import { createClaimService } from '../../src/domain/claim-service.ts';
import { createContacts } from '../../src/domain/contacts.ts';
import { createPeopleDirectory, PEOPLE_INDEX } from '../../src/domain/directory.ts';
import { createIssueService } from '../../src/domain/issue-service.ts';
import { createJobService } from '../../src/domain/job-service.ts';
import { createMemberData } from '../../src/domain/member-data.ts';
import { createOrgCopy } from '../../src/domain/org-copy.ts';
import { createPeopleLookups } from '../../src/domain/people-lookups.ts';
import { createProfileService, type ProfileServiceDependencies } from '../../src/domain/profile-service.ts';
import { type FakeOrgData, startFakeOrg } from './fake-services.ts';

export interface ProfileUnderTestOptions {
  /** What the stand-in org service answers (a test may change it, as the org service's data would change). */
  org: FakeOrgData;
  /** Reads the directory's rows through a read pool of its own, as the composition root does. */
  readPool?: boolean;
  /** Runs once the parts are wired, before the service answers (a seed, the copy of names, a listener). */
  prepare?: (parts: ProfileParts) => Promise<unknown>;
  /** Reports the database's reach in the gRPC health, as the composition root does (runService). */
  databaseHealth?: boolean;
}

async function wireUnderTest(name: string, options: ProfileUnderTestOptions) {
  const logger = createLogger(name, 'silent');
  const root = new URL('../..', import.meta.url).pathname;
  const databaseUrl = await createTestDatabase();
  await migrate({ databaseUrl, schema: 'profile', migrationsDir: `${root}prisma/migrations`, logger });
  await ensureEventTables(databaseUrl, PROFILE_EVENTS);
  const prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'profile') });
  const s3 = await startTestS3(name);
  const store = createObjectStore(s3.config);
  await store.ensureBucket();
  const fakeOrg = await startFakeOrg(options.org);
  const orgDirectory = grpcOrgDirectory(fakeOrg.address);
  const searchIndex = searchIndexFromConfig(
    {
      DATABASE_URL: databaseUrl,
      SEARCH_SCHEMA: 'profile_search',
      SEARCH_INDEX: 'people',
      SEARCH_IN_MEMORY: true,
    },
    PEOPLE_INDEX,
  );
  await searchIndex.ensure();
  const readDriver: ReadDriver | undefined = options.readPool
    ? await connectReadDriver(databaseUrl, 2, `${name}.read`)
    : undefined;
  const people = createPeopleDirectory({
    repository: prismaDirectoryRepository(prisma, 'profile', readDriver),
    index: searchIndex,
  });
  const orgCopy = createOrgCopy({
    copy: prismaOrgCopy(prisma, 'profile'),
    directory: orgDirectory,
    onRenamed: (renamed) => people.placesRenamed(renamed),
  });
  const repository = prismaProfileRepository(prisma, 'profile');
  const quota = prismaDirectoryQuota(prisma, 'profile');
  /** What the composition root gives the profile rules (a test may build them again with another clock). */
  const profileDependencies: ProfileServiceDependencies = {
    profiles: repository,
    quota,
    processImage,
    store,
    logger,
    directory: people,
  };
  const services = {
    profiles: createProfileService(profileDependencies),
    claims: createClaimService({ profiles: repository, directory: people }),
    lookups: createPeopleLookups({ profiles: repository }),
    jobs: createJobService({
      profiles: repository,
      jobs: prismaJobRepository(prisma, 'profile'),
      orgs: orgCopy,
      directory: people,
    }),
    issues: createIssueService({
      issues: prismaIssueRepository(prisma),
      profiles: repository,
      directory: people,
    }),
    directory: people,
    contacts: createContacts({
      directory: people,
      contacts: prismaContactRepository(prisma, 'profile'),
      quota,
    }),
    members: createMemberData({ data: prismaMemberData(prisma, 'profile'), directory: people }),
    keys: idempotencyKeys(prisma, 'profile'),
  };
  const close = async () => {
    orgDirectory.close();
    await fakeOrg.server.shutdown();
    await searchIndex.close();
    await readDriver?.dispose();
    await prisma.$disconnect();
    await s3.stop();
  };
  return {
    logger,
    root,
    databaseUrl,
    prisma,
    store,
    fakeOrg,
    orgDirectory,
    searchIndex,
    people,
    orgCopy,
    profileDependencies,
    services,
    close,
  };
}

export type ProfileParts = Awaited<ReturnType<typeof wireUnderTest>>;

/**
 * Serves the service's parts over real gRPC on a free port, with a client that signs its calls as the gateway's
 * channels do and calls one RPC as `caller` (none: no caller metadata, as for an internal call), with the
 * request's Idempotency-Key when given.
 */
export async function serveProfile(
  services: Parameters<typeof grpcProfileService>[0],
  logger: Logger,
  dependencies?: StartGrpcServerOptions['dependencies'],
) {
  const server = await startGrpcServer({
    ...(dependencies ? { dependencies } : {}),
    callers: testCallers.verifier,
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [
      {
        name: 'rotunda.profile.v1.ProfileService',
        definition: ProfileServiceService,
        implementation: grpcProfileService(services, logger),
      },
    ],
  });
  const client = new ProfileServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), {
    interceptors: [testCallers.signing],
    'grpc.max_send_message_length': 16 * 1024 * 1024,
  });

  const rpc = rpcCalls(ProfileServiceService, () => client);

  const close = async () => {
    client.close();
    await server.shutdown();
  };
  return { client, rpc, close, port: server.port };
}

/** Starts the service on a new database; `name` names its logger, bucket and read pool. */
export async function startProfileUnderTest(name: string, options: ProfileUnderTestOptions) {
  const parts = await wireUnderTest(name, options);
  await options.prepare?.(parts);
  const probe = options.databaseHealth ? createPostgresProbe(parts.databaseUrl) : undefined;
  const served = await serveProfile(
    parts.services,
    parts.logger,
    probe ? { database: probe.ready } : undefined,
  );
  const close = async () => {
    await served.close();
    await probe?.close();
    await parts.close();
  };
  return { ...parts, client: served.client, rpc: served.rpc, port: served.port, close };
}

export type ProfileUnderTest = Awaited<ReturnType<typeof startProfileUnderTest>>;
