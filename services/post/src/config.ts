// The post service's configuration, validated at start-up.
import { envPort, serviceDefaults } from '@rotunda/service-kit';
import { z } from 'zod';

export const postConfigSchema = z.object({
  ...serviceDefaults,
  GRPC_PORT: envPort(50054),
  DATABASE_SCHEMA: z.string().default('post'),
});
