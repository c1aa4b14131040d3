// `node services/post/src/reindex.ts` (or `npm run admin -- reindex posts`): rebuilds the post search index from
// the table whatever it holds, e.g. after the Elasticsearch mapping changed or the database was restored. Reads
// the post service's configuration; prints how many documents the index now holds.
// The rebuild fills a new generation that replaces the live one at once, searches answering from the old one
// meanwhile; when another process is rebuilding the index, it says so and exits with 75 (try again later).
import { runReindexCommand } from '@rotunda/search';
import { loadConfigOrExit } from '@rotunda/service-kit';
import { postConfigSchema } from './config.ts';
import { wirePost } from './wiring.ts';

const config = loadConfigOrExit(postConfigSchema, 'reindex');
const { index, posts, close } = await wirePost(config);
await runReindexCommand({ name: config.SEARCH_INDEX, index, rebuild: () => posts.reindexAll(), close });
