// The auth service's configuration, validated at start-up.
import { envPort, serviceDefaults } from '@rotunda/service-kit';
import { z } from 'zod';

export const authConfigSchema = z.object({
  ...serviceDefaults,
  GRPC_PORT: envPort(50051),
  DATABASE_SCHEMA: z.string().default('auth'),
});
