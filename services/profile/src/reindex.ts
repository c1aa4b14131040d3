// `node services/profile/src/reindex.ts` (or `npm run admin -- reindex people`): rebuilds the people directory's
// search index from the tables whatever it holds, e.g. after the Elasticsearch mapping changed or the database was
// restored. Reads the profile service's configuration; prints how many documents the index now holds
// (@rotunda/search's runReindexCommand).
import { runReindexCommand } from '@rotunda/search';
import { profileConfigSchema } from './config.ts';
import { wireProfile } from './wiring.ts';

await runReindexCommand(profileConfigSchema, async (config, logger) => {
  const { index, directory, close } = await wireProfile(config, logger);
  return { index, rebuild: () => directory.reindexAll(), close };
});
