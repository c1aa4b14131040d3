// `npm run seed:scale -- --profiles 100000 [--organizations 10000] [--posts 200000]`: fills the running product's
// database (DATABASE_URL, default the embedded PostgreSQL of `npm start`) with a realistic large generated data
// set for benchmarks, each service writing its own schema: organizations and divisions (org service), then
// people with jobs at them and issue areas (profile service), then, when asked, posts (post service). Each
// number is a total: only what is missing is added, so running it again adds nothing. The product must be
// running: people are placed at the organizations the org service answers.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { orgConfigSchema } from '@rotunda/org-service/config';
import { searchIndexFor } from '@rotunda/org-service/wiring';
import { loadConfig } from '@rotunda/service-kit';

const REPO = new URL('../..', import.meta.url).pathname;

const { values } = parseArgs({
  options: {
    organizations: { type: 'string', default: '10000' },
    profiles: { type: 'string', default: '100000' },
    posts: { type: 'string', default: '0' },
  },
});
const wanted = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isSafeInteger(n) || n < 0 || n > 2_000_000) {
    process.stderr.write(`seed:scale: --${name} must be a whole number from 0 to 2000000\n`);
    process.exit(64);
  }
  return n;
};
const organizations = wanted('organizations');
const profiles = wanted('profiles');
const posts = wanted('posts');

function run(script: string, args: string[]) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: REPO, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`seed:scale: ${script} failed (exit ${result.status})\n`);
    process.exit(1);
  }
}

if (organizations > 0) {
  const index = searchIndexFor(loadConfig(orgConfigSchema, process.env));
  const present = (await index.search({ offset: 0, limit: 0 })).total;
  await index.close();
  if (present < organizations)
    run('services/org/src/seed/scale.ts', ['--count', String(organizations - present)]);
}
if (profiles > 0) run('services/profile/src/seed/scale.ts', ['--profiles', String(profiles)]);
if (posts > 0) run('services/post/src/seed/scale.ts', ['--total', String(posts)]);
