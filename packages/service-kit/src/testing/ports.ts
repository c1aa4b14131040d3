// Ports for tests that start processes of their own: a free loopback port, and the ports a process listens on.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A loopback port free at the moment of asking. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The TCP ports the process `pid` listens on (from `ss`, which names each socket's process). */
export async function listeningPorts(pid: number): Promise<number[]> {
  const ss = spawn('ss', ['-Hltnp']);
  let text = '';
  ss.stdout.on('data', (chunk) => (text += chunk));
  await new Promise((resolve) => ss.once('exit', resolve));
  return text
    .split('\n')
    .filter((line) => line.includes(`pid=${pid},`))
    .map((line) => Number(line.split(/\s+/)[3]?.split(':').pop()));
}
