// The operator's reindex command, the same for every service's index (`npm run admin -- reindex …`, or a service's
// own `src/reindex.ts`): reads the service's configuration, wires the service on its index, runs the rebuild,
// prints how many documents the index now holds and how long it took, or — when another process holds the rebuild
// lock (a replica starting, another reindex) — says so and exits 75 (EX_TEMPFAIL: try again later). The rebuild
// fills a new generation that replaces the live one at once, searches answering from the old one meanwhile.
import { createLogger, type Logger, loadConfigOrExit } from '@rotunda/service-kit';
import type { z } from 'zod';
import type { SearchConfig } from './config.ts';
import type { RebuildOutcome, SearchIndex } from './port.ts';

/** What a service's wiring gives the command: its index, the rebuild from its tables, and how to close it. */
export interface ReindexWiring {
  index: SearchIndex;
  rebuild: () => Promise<RebuildOutcome>;
  /** Closes what the wiring opened. */
  close: () => Promise<void>;
}

/**
 * Runs the reindex command for the service whose configuration `schema` reads (an invalid one exits 78, as the
 * service would) and whose index `wire` opens.
 */
export async function runReindexCommand<Config extends SearchConfig>(
  schema: z.ZodType<Config>,
  wire: (config: Config, logger: Logger) => Promise<ReindexWiring>,
): Promise<void> {
  const config = loadConfigOrExit(schema, 'reindex');
  const name = config.SEARCH_INDEX;
  // Straight on the Postgres index (or Elasticsearch): a one-off rebuild needs no in-memory copy of its own, and
  // the running replicas hear of it.
  const { index, rebuild, close } = await wire(
    { ...config, SEARCH_IN_MEMORY: false },
    createLogger('reindex', 'warn'),
  );
  const started = performance.now();
  try {
    if ((await rebuild()).rebuilt) {
      const { total } = await index.search({ offset: 0, limit: 0 });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`${name}: the index now holds ${total} documents (rebuilt in ${seconds} s)\n`);
    } else {
      // The other process's rebuild reads the tables as they are now too.
      process.stderr.write(
        `reindex ${name}: another process is rebuilding the index now; nothing done, try again when it is finished\n`,
      );
      process.exitCode = 75;
    }
  } catch (error) {
    process.stderr.write(`reindex ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await close();
  }
}
