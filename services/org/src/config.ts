// The org service's configuration, validated at start-up: the service defaults, the object store logos are
// written to, and the search engine (Elasticsearch when ELASTICSEARCH_URL is set, else the Postgres index).
import { objectStoreConfigSchema } from '@rotunda/images';
import { serviceConfigSchema } from '@rotunda/service-kit';
import { z } from 'zod';

export const orgConfigSchema = serviceConfigSchema('org', 50053).extend({
  ...objectStoreConfigSchema.shape,
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
    .default('org_search'),
  /** The index (Postgres table or Elasticsearch index) holding organizations. */
  SEARCH_INDEX: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case identifier')
    .default('organizations'),
});

export type OrgConfig = z.infer<typeof orgConfigSchema>;
