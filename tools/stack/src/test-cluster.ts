// npm run test:cluster: the Kubernetes overlay proven on a real single-node cluster on this machine. Rotunda's and the
// engines' images are built as the compose stack builds them (`npm run stack -- images`), `npm run cluster -- up`
// starts the cluster, loads them and rolls out k8s/local-data and k8s/overlays/local, cluster-tests/ checks what only
// a running cluster shows, and `npm run cluster -- down` removes it. Runs as root (the cluster's processes need it).
// Not part of `npm test`: building Kubernetes from source alone takes longer than CI's budget; run it before a
// release that changes k8s/. CLUSTER_KEEP=true leaves the cluster running afterwards.
import { join } from 'node:path';
import { compose, images, say, writeEnv } from './stack.ts';
import { step } from './step.ts';

const REPO = join(import.meta.dirname, '../../..');
const CLUSTER = join(REPO, 'tools/stack/cluster/cluster.sh');

const started = performance.now();
const minutes = (since: number) => `${((performance.now() - since) / 60_000).toFixed(1)} min`;
const results: Record<string, number> = {};
try {
  writeEnv();
  const { binary, args } = await compose();
  await images(binary, args);
  const upStarted = performance.now();
  results.up = await step('bash', [CLUSTER, 'up']);
  say(`cluster up: ${results.up === 0 ? 'done' : 'FAILED'} in ${minutes(upStarted)}`);
  if (results.up === 0) {
    const checksStarted = performance.now();
    results.checks = await step(
      join(REPO, 'node_modules/.bin/vitest'),
      ['run', '--config', 'vitest.cluster.config.ts'],
      join(REPO, 'tools/stack'),
    );
    say(`cluster checks: ${results.checks === 0 ? 'passed' : 'FAILED'} in ${minutes(checksStarted)}`);
  }
} catch (error) {
  console.error(`cluster: ${error instanceof Error ? error.message : String(error)}`);
  results.images = 1;
} finally {
  if (process.env.CLUSTER_KEEP !== 'true') results.down = await step('bash', [CLUSTER, 'down']);
}
const failed = Object.entries(results).filter(([, code]) => code !== 0);
say(
  `test:cluster ${failed.length === 0 ? 'passed' : `failed (${failed.map(([name]) => name).join(', ')})`} in ${minutes(started)}`,
);
process.exit(failed.length === 0 ? 0 : 1);
