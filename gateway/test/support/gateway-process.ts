// The gateway as its own Node process (src/main.ts, as `npm start` runs it) on a free port, against fake
// services: a test can then tell a refused request from a crashed process, and read the JSON log lines the
// process writes to its standard output.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { NODE_FLAGS } from '@rotunda/service-kit';
import { testCallers } from '@rotunda/service-kit/testing';
import { ISSUER } from './fake-auth.ts';

const gatewayDir = new URL('../..', import.meta.url).pathname;

export interface GatewayProcess {
  base: string;
  port: number;
  process: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output: () => string;
  /** The parsed JSON log lines so far. */
  logLines: () => Record<string, unknown>[];
  /** True while the process has neither exited nor been killed. */
  alive: () => boolean;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the gateway process with `env` (service addresses default to nowhere) and waits until it listens. */
export async function startGatewayProcess(env: Record<string, string>): Promise<GatewayProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...NODE_FLAGS, 'src/main.ts'], {
    cwd: gatewayDir,
    env: {
      ...process.env,
      ...testCallers.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SERVE_WEB: 'false',
      LOG_LEVEL: 'info',
      TOKEN_ISSUER: ISSUER,
      PUBLIC_CACHE_SECONDS: '0',
      DIRECTORY_CACHE_SECONDS: '0',
      AUTH_SERVICE_ADDR: '127.0.0.1:1',
      PROFILE_SERVICE_ADDR: '127.0.0.1:1',
      ORG_SERVICE_ADDR: '127.0.0.1:1',
      POST_SERVICE_ADDR: '127.0.0.1:1',
      NEWS_SERVICE_ADDR: '127.0.0.1:1',
      NOTIFICATION_SERVICE_ADDR: '127.0.0.1:1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  while (!output.includes('gateway listening')) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the gateway did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    process: child,
    output: () => output,
    logLines: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    alive: () => child.exitCode === null && child.signalCode === null,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
