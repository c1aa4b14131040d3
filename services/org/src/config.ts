// The org service's configuration, validated at start-up.
import { envPort, serviceDefaults } from '@rotunda/service-kit';
import { z } from 'zod';

export const orgConfigSchema = z.object({
  ...serviceDefaults,
  GRPC_PORT: envPort(50053),
  DATABASE_SCHEMA: z.string().default('org'),
});
