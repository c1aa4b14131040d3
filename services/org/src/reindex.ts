// `node services/org/src/reindex.ts` (or `npm run admin -- reindex organizations`): rebuilds the organization
// search index from the table whatever it holds, e.g. after the Elasticsearch mapping changed or the database was
// restored. Reads the org service's configuration; prints how many documents the index now holds
// (@rotunda/search's runReindexCommand).
import { runReindexCommand } from '@rotunda/search';
import { orgConfigSchema } from './config.ts';
import { wireOrg } from './wiring.ts';

await runReindexCommand(orgConfigSchema, async (config, logger) => {
  const { index, org, close } = await wireOrg(config, logger);
  return { index, rebuild: () => org.reindexAll(), close };
});
