// Composition root of the auth service: the identity provider chosen by configuration, the demo accounts, its
// events outbox (made at start, pruned daily), and rotunda.auth.v1.AuthService over gRPC.
import { ensureEventTables, pruneOutbox } from '@rotunda/events';
import { AuthServiceService } from '@rotunda/protos/auth';
import { runService } from '@rotunda/service-kit';
import { grpcAuthService } from './adapters/grpc-auth-service.ts';
import { authConfigSchema } from './config.ts';
import { seedDemoAccounts } from './seed/demo-accounts.ts';
import { AUTH_EVENTS_SCHEMA, wireAuth } from './wiring.ts';

const DAY_MS = 24 * 3600 * 1000;
/** How long recorded events are kept for a consumer that was down (ADR 0042). */
const OUTBOX_RETENTION_MS = 14 * DAY_MS;

await runService({
  name: 'auth',
  configSchema: authConfigSchema,
  migrationsDir: new URL('../prisma/migrations', import.meta.url),
  wire: async ({ config, logger }) => {
    await ensureEventTables(config.DATABASE_URL, AUTH_EVENTS_SCHEMA);
    const { prisma, identity, lists, auth } = wireAuth(config, logger);
    const prune = () =>
      pruneOutbox(config.DATABASE_URL, AUTH_EVENTS_SCHEMA, OUTBOX_RETENTION_MS).catch((error: unknown) =>
        logger.warn({ err: error }, 'pruning the events outbox failed; the next day tries again'),
      );
    await prune();
    const pruning = setInterval(prune, DAY_MS);
    pruning.unref();
    if (config.SEED_DEMO) {
      const created = await seedDemoAccounts(identity, lists);
      if (created > 0) logger.info({ accounts: created }, 'demo accounts seeded');
    }
    return {
      services: [
        {
          name: 'rotunda.auth.v1.AuthService',
          definition: AuthServiceService,
          implementation: grpcAuthService(auth, identity, logger),
          // No write methods are refused to a suspended member here (ADR 0041): they must still log in and out,
          // refresh their session, change or reset their password, and download or delete their data.
          writes: [],
        },
      ],
      onShutdown: async () => {
        clearInterval(pruning);
        await prisma.$disconnect();
      },
    };
  },
});
