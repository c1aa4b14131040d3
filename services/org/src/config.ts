// The org service's configuration, validated at start-up: the service defaults, the object store logos are
// written to, and the search engine (Elasticsearch when ELASTICSEARCH_URL is set, else the Postgres index, searched
// from each replica's in-memory copy unless SEARCH_IN_MEMORY=false).
import { objectStoreConfigSchema } from '@rotunda/images';
import { searchConfigSchema } from '@rotunda/search';
import { serviceConfigSchema } from '@rotunda/service-kit';
import type { z } from 'zod';

export const orgConfigSchema = serviceConfigSchema('org', 50053).extend({
  ...objectStoreConfigSchema.shape,
  ...searchConfigSchema({ schema: 'org_search', index: 'organizations', inMemory: true }).shape,
});

export type OrgConfig = z.infer<typeof orgConfigSchema>;
