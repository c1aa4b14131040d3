// `node services/profile/src/reindex.ts` (or `npm run admin -- reindex people`): rebuilds the people directory's
// search index from the tables whatever it holds, e.g. after the Elasticsearch mapping changed or the database was
// restored. Reads the profile service's configuration; prints how many documents the index now holds.
// The rebuild fills a new generation that replaces the live one at once, searches answering from the old one
// meanwhile; when another process is rebuilding the index, it says so and exits with 75 (try again later).
import { runReindexCommand } from '@rotunda/search';
import { createLogger, loadConfigOrExit } from '@rotunda/service-kit';
import { profileConfigSchema } from './config.ts';
import { wireProfile } from './wiring.ts';

const config = loadConfigOrExit(profileConfigSchema, 'reindex');
// Straight on the Postgres index: a one-off rebuild needs no copy of its own, and the running replicas hear of it.
const { index, directory, close } = await wireProfile(
  { ...config, SEARCH_IN_MEMORY: false },
  createLogger('reindex', 'warn'),
);
await runReindexCommand({ name: config.SEARCH_INDEX, index, rebuild: () => directory.reindexAll(), close });
