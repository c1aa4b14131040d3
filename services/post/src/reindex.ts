// `node services/post/src/reindex.ts` (or `npm run admin -- reindex posts`): rebuilds the post search index from
// the table whatever it holds, e.g. after the Elasticsearch mapping changed or the database was restored. Reads
// the post service's configuration; prints how many documents the index now holds (@rotunda/search's
// runReindexCommand).
import { runReindexCommand } from '@rotunda/search';
import { postConfigSchema } from './config.ts';
import { wirePost } from './wiring.ts';

await runReindexCommand(postConfigSchema, async (config) => {
  const { index, posts, close } = await wirePost(config);
  return { index, rebuild: () => posts.reindexAll(), close };
});
