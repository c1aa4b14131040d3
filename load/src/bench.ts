// `npm run bench [-- startup|gateway|auth|orgs|posts|directory|directory-national [--people N]|replicas|faults [--engines]|web|notifications]`: measures, in one run and on this machine, (1) the time
// from starting the product to a healthy /healthz, (2) GET /api/news through the gateway next to a bare Express
// "hello" (the gateway's ceiling), and (3) login latency with the CPU one password check costs, and the
// gateway's throughput with a member's token next to the same call without one, (4) organization
// list search on 10,000 generated organizations through the gateway next to the same query straight on the
// search index, and (5) the public square's first page on 200,000 generated posts for visitors through the
// gateway next to the bare Express "hello", with members on the same change-driven page cache and members' pages
// not kept alongside, and (6) people directory
// search on 100,000 generated profiles through the gateway (every search reaching the profile service's
// in-memory copy of the index, next to the same straight on the Postgres index), with the first 30 cards from one
// page next to the whole directory (as built) in time and bytes, (7) two replicas of every process under mixed
// load surviving a kill (replicas.ts), (7b) the same load while each dependency fails in turn and comes back
// (faults.ts: a replica, a gateway worker, PostgreSQL, the upload disk), and (8) the web app's first load in Chromium with an empty cache, desktop
// and phone (web.ts), and (9) the notification service: fan-out of recorded events to 10,000 members, a digest
// run for 100,000 members and live unread counts held by one gateway worker (bench/notifications.ts, on its own
// embedded PostgreSQL), and (10, only when named) the people directory at a million people on the real search engine
// (directory-national.ts). Prints a table and writes bench-results/<name>.json. Runs on its own data (.data/bench).
import { cpus } from 'node:os';
import { benchDirectory } from './bench/directory.ts';
import { benchAuth, benchGateway } from './bench/gateway.ts';
import { DATA_DIR, PORT, print, save, startProduct, stopProduct } from './bench/harness.ts';
import { benchNotifications } from './bench/notifications.ts';
import { benchOrgs } from './bench/orgs.ts';
import { benchPosts } from './bench/posts.ts';
import { benchStartup } from './bench/startup.ts';
import { benchDirectoryNational } from './directory-national.ts';
import { benchFaults } from './faults.ts';
import { healthy } from './measure.ts';
import { benchReplicas } from './replicas.ts';
import { benchWeb } from './web.ts';

const which = process.argv[2] ?? 'all';

if (await healthy(`http://127.0.0.1:${PORT}/healthz`)) {
  print(`Something already answers on :${PORT}; stop it (the benchmark starts the product itself).`);
  process.exit(1);
}

print(`Rotunda benchmarks on this machine (${cpus().length} cores, Node ${process.version})`);

const sections: [string, () => Promise<void>][] = [
  ['startup', benchStartup],
  ['gateway', benchGateway],
  ['auth', benchAuth],
  ['orgs', benchOrgs],
  ['posts', benchPosts],
  ['directory', benchDirectory],
  // Only when asked: it seeds a million people (minutes) and needs the real search engine.
  ['directory-national', benchDirectoryNational],
  [
    'replicas',
    () => benchReplicas({ port: PORT, dataDir: DATA_DIR, startProduct, stopProduct, save, print }),
  ],
  [
    'faults',
    () =>
      benchFaults(
        { port: PORT, dataDir: DATA_DIR, startProduct, stopProduct, save, print },
        { engines: process.argv.includes('--engines') },
      ),
  ],
  ['web', () => benchWeb({ port: PORT, dataDir: DATA_DIR, startProduct, stopProduct, save, print })],
  ['notifications', benchNotifications],
];
if (which !== 'all' && !sections.some(([name]) => name === which)) {
  print(
    `No benchmark "${which}". Sections: ${sections.map(([name]) => name).join(', ')} (none: all of them).`,
  );
  process.exit(1);
}
for (const [name, run] of sections)
  if (which === name || (which === 'all' && name !== 'directory-national')) await run();
