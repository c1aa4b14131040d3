// Composition root of the auth service: its own schema and the gRPC server with health checking.
// Its RPCs are wired here as the capability lands.
import { AuthServiceService } from '@rotunda/protos/auth';
import { runService, serviceConfigSchema } from '@rotunda/service-kit';

await runService({
  name: 'auth',
  configSchema: serviceConfigSchema('auth', 50051),
  migrationsDir: new URL('../prisma/migrations', import.meta.url),
  wire: () => ({
    services: [{ name: 'rotunda.auth.v1.AuthService', definition: AuthServiceService, implementation: {} }],
  }),
});
