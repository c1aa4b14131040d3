// For the outage suites under `npm run test:engines`: a loopback HTTP endpoint through which a suite, in the
// vitest process, stops one of the real engines and starts it again (POST /engines/<name>/stop, /start; the
// start answers {"ms": <until healthy>}). The suites find it at ENGINES_CONTROL_URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EngineName, Engines } from './index.ts';

const ROUTE = /^\/engines\/(keycloak|search|s3)\/(stop|start)$/;

export async function startOutageControl(
  engines: Pick<Engines, 'outage'>,
  say: (line: string) => void = () => {},
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    const match = ROUTE.exec(request.url ?? '');
    if (request.method !== 'POST' || !match) {
      response.writeHead(404).end();
      return;
    }
    const name = match[1] as EngineName;
    const started = performance.now();
    const action = match[2] === 'stop' ? engines.outage.stop(name).then(() => 0) : engines.outage.start(name);
    action.then(
      (ms) => {
        say(
          `${name}: ${match[2] === 'stop' ? 'stopped' : 'started again'} in ${Math.round(performance.now() - started)} ms`,
        );
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ms }));
      },
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
