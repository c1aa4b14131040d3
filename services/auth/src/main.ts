// Composition root of the auth service: the identity provider chosen by configuration, the demo accounts, its
// events outbox (made at start, pruned daily), and rotunda.auth.v1.AuthService over gRPC.
import { keepOutbox } from '@rotunda/events';
import { AuthServiceService } from '@rotunda/protos/auth';
import { runService } from '@rotunda/service-kit';
import { grpcAuthService } from './adapters/grpc-auth-service.ts';
import { authConfigSchema } from './config.ts';
import { seedDemoAccounts } from './seed/demo-accounts.ts';
import { AUTH_EVENTS_SCHEMA, wireAuth } from './wiring.ts';

await runService({
  name: 'auth',
  configSchema: authConfigSchema,
  migrationsDir: new URL('../prisma/migrations', import.meta.url),
  wire: async ({ config, logger }) => {
    const stopOutbox = await keepOutbox({
      databaseUrl: config.DATABASE_URL,
      schema: AUTH_EVENTS_SCHEMA,
      logger,
    });
    const { prisma, identity, lists, auth, access, agencies } = wireAuth(config, logger);
    if (config.SEED_DEMO) {
      const created = await seedDemoAccounts(identity, lists);
      if (created > 0) logger.info({ accounts: created }, 'demo accounts seeded');
    }
    return {
      services: [
        {
          name: 'rotunda.auth.v1.AuthService',
          definition: AuthServiceService,
          implementation: grpcAuthService(auth, identity, access, agencies, logger),
          // No write methods are refused to a suspended member here (ADR 0041): they must still log in and out,
          // refresh their session, change or reset their password, and download or delete their data.
          writes: [],
        },
      ],
      onShutdown: async () => {
        stopOutbox();
        await prisma.$disconnect();
      },
    };
  },
});
