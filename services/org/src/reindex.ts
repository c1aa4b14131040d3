// `node services/org/src/reindex.ts` (or `npm run admin -- reindex organizations`): rebuilds the organization
// search index from the table whatever it holds, e.g. after the Elasticsearch mapping changed or the database was
// restored. Reads the org service's configuration; prints how many documents the index now holds.
// The rebuild fills a new generation that replaces the live one at once, searches answering from the old one
// meanwhile; when another process is rebuilding the index, it says so and exits with 75 (try again later).
import { runReindexCommand } from '@rotunda/search';
import { createLogger, loadConfigOrExit } from '@rotunda/service-kit';
import { orgConfigSchema } from './config.ts';
import { wireOrg } from './wiring.ts';

const config = loadConfigOrExit(orgConfigSchema, 'reindex');
// Straight on the Postgres index: a one-off rebuild needs no copy of its own, and the running replicas hear of it.
const { index, org, close } = await wireOrg(
  { ...config, SEARCH_IN_MEMORY: false },
  createLogger('reindex', 'warn'),
);
await runReindexCommand({ name: config.SEARCH_INDEX, index, rebuild: () => org.reindexAll(), close });
