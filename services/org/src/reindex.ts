// `node services/org/src/reindex.ts` (or `npm run admin -- reindex organizations`): rebuilds the organization
// search index from the table whatever it holds, e.g. after the Elasticsearch mapping changed or the database was
// restored. Reads the org service's configuration; prints how many documents the index now holds.
// The rebuild fills a new generation that replaces the live one at once, searches answering from the old one
// meanwhile; when another process is rebuilding the index, it says so and exits with 75 (try again later).
import { createLogger, loadConfigOrExit } from '@rotunda/service-kit';
import { orgConfigSchema } from './config.ts';
import { wireOrg } from './wiring.ts';

const config = loadConfigOrExit(orgConfigSchema, 'reindex');
const started = performance.now();
// Straight on the Postgres index: a one-off rebuild needs no copy of its own, and the running replicas hear of it.
const { index, org, close } = await wireOrg(
  { ...config, SEARCH_IN_MEMORY: false },
  createLogger('reindex', 'warn'),
);
try {
  const outcome = await org.reindexAll();
  if (outcome.rebuilt) {
    const { total } = await index.search({ offset: 0, limit: 0 });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `${config.SEARCH_INDEX}: the index now holds ${total} documents (rebuilt in ${seconds} s)\n`,
    );
  } else {
    // Another process (a replica starting, another reindex) holds the rebuild lock: its rebuild reads the tables
    // as they are now too.
    process.stderr.write(
      `reindex ${config.SEARCH_INDEX}: another process is rebuilding the index now; nothing done, try again when it is finished\n`,
    );
    process.exitCode = 75; // EX_TEMPFAIL
  }
} catch (error) {
  process.stderr.write(
    `reindex ${config.SEARCH_INDEX}: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
} finally {
  await close();
}
