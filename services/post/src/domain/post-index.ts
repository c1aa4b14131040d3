// The posts' search index (docs/product.md#5-validation-rules, #6-roles-and-permissions): what it holds of a
// post, the feed's orders, and keeping it in step with the table: a post after each write that shows in
// search, an author's posts when their names or issue areas change, and the whole index when a replica starts
// or the operator rebuilds it.
import {
  type RebuildOutcome,
  type RebuildSource,
  type SearchDocument,
  type SearchIndex,
  type SearchQuery,
  SearchUnavailableError,
  type SortKey,
  syncIndex,
} from '@rotunda/search';
import type { IndexedPostStore, TableFeedPage } from './ports.ts';
import type { IndexedPost, Sort } from './post.ts';
import { seenBy } from './visibility.ts';

/** Documents re-indexed per batch when the index is rebuilt or an author is renamed. */
const REINDEX_BATCH = 500;
/**
 * How long a feed page the table can answer waits on the search engine: an engine starting, or gone without a
 * word, may take its whole call timeout (2.5 s) to fail, and the table's read after it would pass the gateway's
 * 3 s deadline. The engine answers a feed page in milliseconds when it is there.
 */
export const FEED_ENGINE_PATIENCE_MS = 1_000;
const LATE = Symbol('late');

/**
 * The search index's fields for posts: every word of a search must be in the title, the author's first or last
 * name, or the body's text (docs/product.md#5-validation-rules); the type filter, "My issue areas" (the
 * author's issue area ids) and who may find the post (`seen_by`, visibility.ts: a hidden post only its author
 * and contributors); the feed sorts on the creation time and the like count.
 */
export const POST_INDEX = {
  textFields: ['title', 'first_name', 'last_name', 'body'],
  keywordFields: ['type', 'issue', 'seen_by'],
  sortFields: [
    { name: 'created_at', type: 'number' as const },
    { name: 'likes', type: 'number' as const },
  ],
};

export function searchDocumentOf(post: IndexedPost): SearchDocument {
  return {
    id: String(post.postId),
    text: {
      title: post.title,
      first_name: post.authorFirstName,
      last_name: post.authorLastName,
      body: post.bodyText,
    },
    keywords: {
      type: [String(post.postTypeId)],
      issue: post.authorIssueAreaIds.map(String),
      seen_by: seenBy({ userId: post.userId, state: post.moderationState }),
    },
    sort: { created_at: post.createdAt.getTime(), likes: post.likesCount },
  };
}

/**
 * The feed's orders (docs/product.md#4-states-and-transitions): recent = newest first; popular = most liked,
 * then newest; random = seeded.
 */
export function feedOrder(sort: Sort, seed: number): SortKey[] {
  if (sort === 'popular')
    return [
      { field: 'likes', direction: 'desc' },
      { field: 'created_at', direction: 'desc' },
    ];
  if (sort === 'random') return [{ random: seed }];
  return [{ field: 'created_at', direction: 'desc' }];
}

export interface PostIndexDependencies {
  posts: IndexedPostStore;
  index: SearchIndex;
}

export function createPostIndex({ posts, index }: PostIndexDependencies) {
  /** What a rebuild reads: every post a batch at a time, and the current ones of ids written meanwhile. */
  const source: RebuildSource = {
    eachPage: (handle) =>
      posts.forEachIndexBatch(REINDEX_BATCH, (batch) => handle(batch.map(searchDocumentOf))),
    documents: async (ids) =>
      (await posts.indexedPosts(ids.map(Number).filter(Number.isSafeInteger))).map(searchDocumentOf),
  };

  return {
    /**
     * The ids of one page of matches, in the index's order. A page without search words (`fromTable`) is read from
     * the table while the search engine is away, or has not answered within FEED_ENGINE_PATIENCE_MS: the feed stays
     * readable within the deadline; a search says it is unavailable.
     */
    async search(query: SearchQuery, fromTable?: TableFeedPage): Promise<number[]> {
      if (!fromTable) return (await index.search(query)).ids.map(Number);
      const fromEngine = index.search(query);
      let patience: NodeJS.Timeout | undefined;
      try {
        const answer = await Promise.race([
          fromEngine,
          new Promise<typeof LATE>((resolve) => {
            patience = setTimeout(resolve, FEED_ENGINE_PATIENCE_MS, LATE);
          }),
        ]);
        if (answer !== LATE) return answer.ids.map(Number);
        // Its late answer or failure is nobody's any more.
        fromEngine.catch(() => {});
      } catch (error) {
        if (!(error instanceof SearchUnavailableError)) throw error;
      } finally {
        clearTimeout(patience);
      }
      return posts.feedPageIds(fromTable);
    },

    /** Brings the index's documents of these posts in step with the table (after a write that shows in search). */
    async postsChanged(postIds: readonly number[]): Promise<void> {
      const indexed = await posts.indexedPosts(postIds);
      if (indexed.length > 0) await index.upsert(indexed.map(searchDocumentOf));
    },

    async postRemoved(postId: number): Promise<void> {
      await index.remove([String(postId)]);
    },

    /** Every post of these authors learns their names and issue areas again. */
    async authorsChanged(authorIds: readonly number[]): Promise<void> {
      for (const authorId of authorIds) {
        await posts.forEachIndexBatch(
          REINDEX_BATCH,
          async (batch) => index.upsert(batch.map(searchDocumentOf)),
          authorId,
        );
      }
    },

    /**
     * Brings the search index in step when a replica starts: rebuilt into a new generation when it was built for
     * another definition or does not hold as many posts as the table, by whichever replica takes the lock (the
     * others serve the live index meanwhile). Answers how many were indexed (0 when it was in step, or when another
     * replica is rebuilding it).
     */
    async sync(): Promise<number> {
      const result = await syncIndex(index, { source, count: () => posts.count() });
      return result.outcome === 'rebuilt' ? result.documents : 0;
    },

    /**
     * Rebuilds the index from the table whatever it holds (the operator's `reindex`): a new generation, switched to
     * at once, searches answering from the old one meanwhile. `rebuilt: false` when another process is rebuilding it.
     */
    rebuild: (): Promise<RebuildOutcome> => index.rebuild(source),
  };
}

export type PostIndex = ReturnType<typeof createPostIndex>;
