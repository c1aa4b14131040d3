// Composition root of the org service: its own schema and the gRPC server with health checking.
// Its RPCs are wired here as the capability lands.
import { OrgServiceService } from '@rotunda/protos/org';
import { runService, serviceConfigSchema } from '@rotunda/service-kit';

await runService({
  name: 'org',
  configSchema: serviceConfigSchema('org', 50053),
  migrationsDir: new URL('../prisma/migrations', import.meta.url),
  wire: () => ({
    services: [{ name: 'rotunda.org.v1.OrgService', definition: OrgServiceService, implementation: {} }],
  }),
});
