// Test support: replicas of the small test service (fixtures/replica.ts) as their own processes on the test
// database, and its read and write called as the services call each other (the kit's sendUnary).
import { type ChildProcess, spawn } from 'node:child_process';
import { Metadata, type ServiceError } from '@grpc/grpc-js';
import { AddOrganizationRequest, type OrgServiceClient } from '@rotunda/protos/org';
import { type Caller, sendUnary, setCallerMetadata, type UnaryMethod } from '../../src/index.ts';
import { testCallers } from '../../src/testing/index.ts';

const kitDir = new URL('../..', import.meta.url).pathname;

export interface Replica {
  name: string;
  port: number;
  process: ChildProcess;
  /** The exit code and signal, once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
}

export async function startReplica(
  name: string,
  env: { DATABASE_URL: string; DATABASE_SCHEMA: string } & Record<string, string>,
): Promise<Replica> {
  const child = spawn(process.execPath, ['test/fixtures/replica.ts'], {
    cwd: kitDir,
    env: { ...process.env, ...testCallers.env, REPLICA: name, LOG_LEVEL: 'info', SEED_DEMO: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    const listening = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; port?: number })
      .find((line) => line.msg === 'grpc server listening');
    if (listening?.port) return { name, port: listening.port, process: child, exited, output: () => output };
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`replica ${name} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Answer {
  replica?: string;
  /** For a read: the writes the replica that answered had taken. */
  writes?: number;
  /** For a read: the member the replica saw calling (the client must sign callers: testCallers.signing). */
  caller?: string;
  error?: ServiceError;
}

/** A call sent as the services and the gateway send theirs (the kit's sendUnary), answered or failed. */
const send = <Request, Response>(
  client: OrgServiceClient,
  method: UnaryMethod<Request, Response>,
  request: Request,
  deadlineMs: number,
  answer: (response: Response) => Answer,
  caller?: Caller,
): Promise<Answer> => {
  const metadata = new Metadata();
  if (caller) setCallerMetadata(metadata, caller);
  return sendUnary(client, method, request, metadata, new Date(Date.now() + deadlineMs)).then(
    answer,
    (error: ServiceError) => ({ error }),
  );
};

/** GetOrganization (an idempotent read) as `caller`, answered after `delayMs` (plus the replica's own delay). */
export const read = (client: OrgServiceClient, delayMs = 0, deadlineMs = 20_000, caller?: Caller) =>
  send(
    client,
    client.getOrganization,
    { organization_id: delayMs },
    deadlineMs,
    (response) => ({
      replica: response.organization?.organization_name,
      writes: response.organization?.organization_id,
      caller: response.organization?.website,
    }),
    caller,
  );

/** AddOrganization (a write), answered after `delayMs` (plus the replica's own delay). */
export const write = (client: OrgServiceClient, delayMs = 0) =>
  send(
    client,
    client.addOrganization,
    AddOrganizationRequest.fromPartial({ organization_name: 'x', group_type: String(delayMs) }),
    20_000,
    (response) => ({ replica: response.organization?.organization_name }),
  );

/** How many answers each replica gave. */
export function countByReplica(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { replica } of answers) if (replica) counts[replica] = (counts[replica] ?? 0) + 1;
  return counts;
}
