// Test support: the real post service in its own process, as `npm start` runs it, on the database and with the
// profile and org services given, for the suites that test the gateway in front of the real thing.
import { type ChildProcess, spawn } from 'node:child_process';
import { NODE_FLAGS } from '@rotunda/service-kit';
import { freePort, testCallers } from '@rotunda/service-kit/testing';

const postServiceDir = new URL('../../../services/post', import.meta.url).pathname;

export interface PostProcess {
  /** Its gRPC address. */
  address: string;
  child: ChildProcess;
  /** What it printed so far, for a failure's message. */
  output: () => string;
  /** Stops it (SIGTERM) and waits for its exit. */
  stop: () => Promise<void>;
}

export async function startPostProcess(options: {
  databaseUrl: string;
  profileAddress: string;
  orgAddress: string;
}): Promise<PostProcess> {
  const grpcPort = await freePort();
  const child = spawn(process.execPath, [...NODE_FLAGS, 'src/main.ts'], {
    cwd: postServiceDir,
    env: {
      ...process.env,
      ...testCallers.env,
      DATABASE_URL: options.databaseUrl,
      GRPC_PORT: String(grpcPort),
      PROFILE_SERVICE_ADDR: options.profileAddress,
      ORG_SERVICE_ADDR: options.orgAddress,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return {
    address: `127.0.0.1:${grpcPort}`,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
