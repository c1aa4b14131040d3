// Composition root of the org service: the Prisma repository on its own schema, the organization groups, the
// object store for logos (uploads no organization took swept away on a timer), the search index (Postgres or
// Elasticsearch, by configuration) brought in step with the table, the demo seed, and rotunda.org.v1.OrgService
// over gRPC.
import { startOrphanSweeper } from '@rotunda/images';
import { OrgServiceService } from '@rotunda/protos/org';
import { runService } from '@rotunda/service-kit';
import { grpcOrgService } from './adapters/grpc-org-service.ts';
import { prismaLogosInUse } from './adapters/logo-references.ts';
import { orgConfigSchema } from './config.ts';
import { GROUPS } from './domain/organization.ts';
import { seedDemoOrganizations } from './seed/demo-organizations.ts';
import { wireOrg } from './wiring.ts';

await runService({
  name: 'org',
  configSchema: orgConfigSchema,
  migrationsDir: new URL('../prisma/migrations', import.meta.url),
  wire: async ({ config, logger }) => {
    const { prisma, repository, store, org, close } = await wireOrg(config, logger);
    // The groups are reference data every organization points at, demo or not.
    await repository.ensureGroups(GROUPS);
    // The migration keyed existing names in SQL; foldName alone knows every script's case.
    const rekeyed = await repository.rekeyNames();
    if (rekeyed > 0) logger.info({ organizations: rekeyed }, 'organization names re-keyed');
    await store.ensureBucket();
    if (config.SEED_DEMO) {
      const seeded = await seedDemoOrganizations({ repository, store });
      if (seeded > 0) logger.info({ organizations: seeded }, 'demo organizations seeded');
    }
    const indexed = await org.syncSearchIndex();
    if (indexed > 0) logger.info({ organizations: indexed }, 'search index rebuilt');
    const sweeper = startOrphanSweeper({
      store,
      kind: 'logos',
      referenced: prismaLogosInUse(prisma),
      logger,
    });
    return {
      services: [
        {
          name: 'rotunda.org.v1.OrgService',
          definition: OrgServiceService,
          implementation: grpcOrgService(org, logger),
          // Everything that changes an organization or its divisions: a suspended member reads, never writes
          // (ADR 0041).
          writes: [
            'addOrganization',
            'updateOrganization',
            'setOrganizationLogo',
            'addDivision',
          ] satisfies (keyof typeof OrgServiceService)[],
        },
      ],
      onShutdown: async () => {
        await sweeper.stop();
        await close();
      },
    };
  },
});
