// The operator's reindex command, the same for every service's index (`npm run admin -- reindex …`): runs the
// rebuild, prints how many documents the index now holds and how long it took, or — when another process holds
// the rebuild lock (a replica starting, another reindex) — says so and exits 75 (EX_TEMPFAIL: try again later).
import type { RebuildOutcome, SearchIndex } from './port.ts';

export async function runReindexCommand(options: {
  /** The index's name, as the output names it. */
  name: string;
  index: SearchIndex;
  rebuild: () => Promise<RebuildOutcome>;
  /** Closes what the command's wiring opened. */
  close: () => Promise<void>;
}): Promise<void> {
  const started = performance.now();
  try {
    if ((await options.rebuild()).rebuilt) {
      const { total } = await options.index.search({ offset: 0, limit: 0 });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(
        `${options.name}: the index now holds ${total} documents (rebuilt in ${seconds} s)\n`,
      );
    } else {
      // The other process's rebuild reads the tables as they are now too.
      process.stderr.write(
        `reindex ${options.name}: another process is rebuilding the index now; nothing done, try again when it is finished\n`,
      );
      process.exitCode = 75;
    }
  } catch (error) {
    process.stderr.write(
      `reindex ${options.name}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  } finally {
    await options.close();
  }
}
