// Composition root of the profile service: its own schema, the object store for pictures (uploads no profile
// took swept away on a timer), the demo seed (which waits for the org and auth services it takes ids from), the
// read copies of the org service's names kept by its announcements, the people directory's search index brought
// in step, its recorded events (claim decisions out, account deletions in), and rotunda.profile.v1.ProfileService
// over gRPC.
import { keepOutbox } from '@rotunda/events';
import { startOrphanSweeper } from '@rotunda/images';
import { ProfileServiceService } from '@rotunda/protos/profile';
import { runService } from '@rotunda/service-kit';
import { grpcAccountLookup } from './adapters/grpc-clients.ts';
import { grpcProfileService } from './adapters/grpc-profile-service.ts';
import { keepOrgCopy } from './adapters/org-change-listener.ts';
import { consumeAccountDeletions, PROFILE_EVENTS } from './adapters/profile-events.ts';
import { profileConfigSchema } from './config.ts';
import { seedDemoProfiles } from './seed/demo-profiles.ts';
import { wireProfile } from './wiring.ts';

await runService({
  name: 'profile',
  configSchema: profileConfigSchema,
  migrationsDir: new URL('../prisma/migrations', import.meta.url),
  wire: async ({ config, logger }) => {
    // The outbox a claim decision is recorded in, before anything can decide one (ADR 0042).
    const stopOutbox = await keepOutbox({ databaseUrl: config.DATABASE_URL, schema: PROFILE_EVENTS, logger });
    const wired = await wireProfile(config, logger);
    const { prisma, orgDirectory, orgCopy, store, directory, profiles, close } = wired;
    await store.ensureBucket();
    if (config.SEED_DEMO) {
      const accounts = grpcAccountLookup(config.AUTH_SERVICE_ADDR);
      try {
        const seeded = await seedDemoProfiles({
          prisma,
          store,
          copyOrgNames: () => orgCopy.copyAll(),
          addressOf: (organizationId) => orgDirectory.addressOf(organizationId),
          accountIds: (emails) => accounts.userIdsByEmail(emails),
          logger,
        });
        if (seeded > 0) logger.info({ profiles: seeded }, 'demo profiles seeded');
      } finally {
        accounts.close();
      }
    }
    const indexed = await directory.rebuildIfOutOfStep();
    if (indexed > 0) logger.info({ profiles: indexed }, 'directory search index rebuilt');
    // After the seed, which copied the names itself: the listener's first copy then finds the org service up.
    const listener = keepOrgCopy({ databaseUrl: config.DATABASE_URL, logger, orgCopy });
    // The deleted accounts it forgets, read from where it left off (ADR 0042).
    const deletions = consumeAccountDeletions({
      databaseUrl: config.DATABASE_URL,
      logger,
      members: wired.members,
    });
    const sweeper = startOrphanSweeper({
      store,
      kind: 'pictures',
      referenced: (keys) => profiles.picturesInUse(keys),
      logger,
    });
    return {
      services: [
        {
          name: 'rotunda.profile.v1.ProfileService',
          definition: ProfileServiceService,
          implementation: grpcProfileService(wired, logger),
          // Everything that changes a profile, a claim or the issue areas: a suspended member reads, never
          // writes (ADR 0041).
          writes: [
            'createProfile',
            'uploadPicture',
            'updateProfile',
            'claimProfile',
            'decideClaim',
            'setBio',
            'addJob',
            'updateJob',
            'deleteJob',
            'addIssueArea',
            'addUserIssue',
            'deleteUserIssue',
          ] satisfies (keyof typeof ProfileServiceService)[],
        },
      ],
      onShutdown: async () => {
        await sweeper.stop();
        stopOutbox();
        await deletions.close();
        await listener.close();
        await close();
      },
    };
  },
});
