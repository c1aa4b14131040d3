// The post service's configuration, validated at start-up: the service defaults, where the profile and org
// services answer (authors, and the names the read copies start from), how long a call to them may take, each
// member's comment allowance, and the search engine (Elasticsearch when ELASTICSEARCH_URL is set, else the
// Postgres index).
import { searchConfigSchema } from '@rotunda/search';
import { envAddress, envPositiveInt, serviceConfigSchema } from '@rotunda/service-kit';
import type { z } from 'zod';

export const postConfigSchema = serviceConfigSchema('post', 50054).extend({
  PROFILE_SERVICE_ADDR: envAddress('127.0.0.1:50052'),
  ORG_SERVICE_ADDR: envAddress('127.0.0.1:50053'),
  /** Deadline of one call to the profile or org service. */
  GRPC_DEADLINE_MS: envPositiveInt(3000),
  /** Comments a member may write at once… */
  COMMENT_BURST: envPositiveInt(10),
  /** …then how many a minute, steadily (one every 6 s by default). */
  COMMENT_RATE_PER_MINUTE: envPositiveInt(10),
  ...searchConfigSchema({ schema: 'post_search', index: 'posts' }).shape,
});

export type PostConfig = z.infer<typeof postConfigSchema>;
