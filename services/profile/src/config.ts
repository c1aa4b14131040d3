// The profile service's configuration, validated at start-up: the service defaults, the object store pictures
// are written to, and where the org service (read copies of its names) and the auth service (demo accounts'
// ids for the seed) answer, and the search engine of the people directory.
import { objectStoreConfigSchema } from '@rotunda/images';
import { searchConfigSchema } from '@rotunda/search';
import { envAddress, serviceConfigSchema } from '@rotunda/service-kit';
import type { z } from 'zod';

export const profileConfigSchema = serviceConfigSchema('profile', 50052).extend({
  ...objectStoreConfigSchema.shape,
  ...searchConfigSchema({ schema: 'profile_search', index: 'people', inMemory: true }).shape,
  ORG_SERVICE_ADDR: envAddress('127.0.0.1:50053'),
  AUTH_SERVICE_ADDR: envAddress('127.0.0.1:50051'),
});

export type ProfileConfig = z.infer<typeof profileConfigSchema>;
