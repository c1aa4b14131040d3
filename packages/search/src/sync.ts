// Keeping an index in step with its owner's tables when a replica starts: rebuilt when it was built for another
// definition, holds another number of documents or stores values of an older shape, by one replica while the
// others keep serving.
import { isEngineUnreachable, SearchUnavailableError } from './elasticsearch/outage.ts';
import type { RebuildSource, SearchIndex } from './port.ts';
import type { StoredCodec } from './stored.ts';

export interface IndexSyncOptions {
  source: RebuildSource;
  /** How many documents the owner's tables make. */
  count: () => Promise<number>;
  /** Between looks at an outdated index another replica is rebuilding, and between counts that disagree. */
  pollMs?: number;
  /** Between tries in the background while the search engine is away (default 2 s). */
  awayRetryMs?: number;
  /**
   * The codec of the documents' stored values: an index whose first documents store another version (written before
   * the value changed shape) is rebuilt, while it keeps answering, rather than reading every page's values from the
   * owner's tables until each document happens to be written again.
   */
  stored?: Pick<StoredCodec<unknown>, 'isCurrent'>;
}

/** Documents whose stored values are looked at for their shape. */
const STORED_SAMPLE = 20;

/**
 * Counts that must all disagree before a current index is rebuilt: an owner writes its table, then the index, so
 * under writes one count can catch a write between the two; an index truly out of step disagrees every time.
 */
const COUNTS = 3;

/**
 * 'in step': nothing to do; 'rebuilt': this replica rebuilt it; 'rebuilding elsewhere': another replica holds
 * the rebuild lock, and this one serves the live index meanwhile.
 */
export type IndexSyncOutcome =
  | { outcome: 'in step' }
  | { outcome: 'rebuilt'; documents: number }
  | { outcome: 'rebuilding elsewhere' }
  | { outcome: 'engine away' };

const engineAway = (error: unknown) => error instanceof SearchUnavailableError || isEngineUnreachable(error);

/**
 * An index of this replica's definition that is merely out of step (a seed wrote past it, a restore) keeps
 * answering while another replica rebuilds it. One of another definition cannot answer this replica's queries,
 * so the replica waits until some replica (it, if it gets the lock) has rebuilt it, as a rolling update's new
 * replicas do while the old ones serve.
 */
export async function syncIndex(index: SearchIndex, options: IndexSyncOptions): Promise<IndexSyncOutcome> {
  // Writes an earlier replica kept for the engine are sent, whatever the sync below finds.
  index.resendFrom?.(options.source);
  try {
    return await syncNow(index, options);
  } catch (error) {
    if (!engineAway(error)) throw error;
  }
  // The search engine is away: the replica starts and serves without it (searches say so, the feed reads its
  // table, index writes are kept), and brings the index in step once the engine answers.
  const retry = () => {
    setTimeout(() => {
      syncNow(index, options).catch(retry);
    }, options.awayRetryMs ?? 2000).unref();
  };
  retry();
  return { outcome: 'engine away' };
}

async function syncNow(index: SearchIndex, options: IndexSyncOptions): Promise<IndexSyncOutcome> {
  for (;;) {
    const state = await index.ensure();
    if (state === 'current' && (await countsAgree(index, options)) && (await storedCurrent(index, options)))
      return { outcome: 'in step' };
    const result = await index.rebuild(options.source);
    if (result.rebuilt) {
      // A replicated index loads its copy of the new generation.
      await index.ensure();
      return { outcome: 'rebuilt', documents: result.documents };
    }
    if (state === 'current') return { outcome: 'rebuilding elsewhere' };
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
  }
}

async function storedCurrent(index: SearchIndex, { stored }: IndexSyncOptions): Promise<boolean> {
  if (!stored) return true;
  // A sample: documents written since the shape changed are current, those left from before are not.
  const { ids, stored: values } = await index.search({ offset: 0, limit: STORED_SAMPLE, withStored: true });
  return ids.every((_, i) => stored.isCurrent(values?.[i]));
}

async function countsAgree(index: SearchIndex, options: IndexSyncOptions): Promise<boolean> {
  for (let count = 0; count < COUNTS; count++) {
    if (count > 0) await new Promise((resolve) => setTimeout(resolve, (options.pollMs ?? 1000) / 4));
    const [{ total }, rows] = await Promise.all([index.search({ offset: 0, limit: 0 }), options.count()]);
    if (total === rows) return true;
  }
  return false;
}
