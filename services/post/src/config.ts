// The post service's configuration, validated at start-up: the service defaults, where the profile and org
// services answer (authors, and the names the read copies start from), how long a call to them may take, and the
// search engine (Elasticsearch when ELASTICSEARCH_URL is set, else the Postgres index).
import { envPositiveInt, serviceConfigSchema } from '@rotunda/service-kit';
import { z } from 'zod';

const address = (defaultValue: string) =>
  z
    .string()
    .regex(/^[\w.-]+:\d{1,5}$/, 'must be host:port')
    .default(defaultValue);

export const postConfigSchema = serviceConfigSchema('post', 50054).extend({
  PROFILE_SERVICE_ADDR: address('127.0.0.1:50052'),
  ORG_SERVICE_ADDR: address('127.0.0.1:50053'),
  /** Deadline of one call to the profile or org service. */
  GRPC_DEADLINE_MS: envPositiveInt(3000),
  /** Elasticsearch's URL (credentials may ride in it); unset: the pg_trgm index in PostgreSQL. */
  ELASTICSEARCH_URL: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  /** The Postgres index's schema, apart from the Prisma-managed one. */
  SEARCH_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier')
    .default('post_search'),
  /** The index (Postgres table or Elasticsearch index) holding posts. */
  SEARCH_INDEX: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case identifier')
    .default('posts'),
});

export type PostConfig = z.infer<typeof postConfigSchema>;
