// The profile service's configuration, validated at start-up.
import { envPort, serviceDefaults } from '@rotunda/service-kit';
import { z } from 'zod';

export const profileConfigSchema = z.object({
  ...serviceDefaults,
  GRPC_PORT: envPort(50052),
  DATABASE_SCHEMA: z.string().default('profile'),
});
