// The search proxy as a process of its own, for the compose stack: the `elasticsearch` service the services reach
// at http://elasticsearch:9200, in front of the `opensearch` service (ADR 0023). Settings: UPSTREAM_URL (the
// engine), PORT (default 9200), HOST (default 0.0.0.0: a container's own network). Stops on SIGTERM.
import { startSearchProxy } from './search-proxy.ts';

const upstream = process.env.UPSTREAM_URL;
if (!upstream) {
  console.error('search proxy: set UPSTREAM_URL (e.g. http://opensearch:9200)');
  process.exit(2);
}
const proxy = await startSearchProxy({
  upstream,
  port: Number(process.env.PORT ?? 9200),
  host: process.env.HOST ?? '0.0.0.0',
});
console.log(`search proxy: ${proxy.url} → ${upstream}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    void proxy.close().then(() => process.exit(0));
  });
