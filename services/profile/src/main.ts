// Composition root of the profile service: its own schema and the gRPC server with health checking.
// Its RPCs are wired here as the capability lands.
import { ProfileServiceService } from '@rotunda/protos/profile';
import { runService, serviceConfigSchema } from '@rotunda/service-kit';

await runService({
  name: 'profile',
  configSchema: serviceConfigSchema('profile', 50052),
  migrationsDir: new URL('../prisma/migrations', import.meta.url),
  wire: () => ({
    services: [
      { name: 'rotunda.profile.v1.ProfileService', definition: ProfileServiceService, implementation: {} },
    ],
  }),
});
