// Engine processes never outlive us: a stop ends the whole process group (launcher script and what it started),
// SIGKILL follows when something ignores SIGTERM, and when the supervising process itself is killed its
// watchdogs end the groups. Real processes (sh, sleep), no engine.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { runStep, supervise, waitHealthy } from '../src/supervise.ts';

const folder = mkdtempSync(join(tmpdir(), 'engines-supervise-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function running(commandLinePart: string): boolean {
  return spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout.includes(commandLinePart);
}

async function until(check: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  while (performance.now() < deadline) {
    if (check()) return true;
    await sleep(100);
  }
  return check();
}

describe('supervise', () => {
  it('stops the whole group: the launcher and the processes it started', async () => {
    const engine = supervise({
      name: 'pair',
      command: 'sh',
      args: ['-c', 'sleep 300 & sleep 300 & wait'],
      logFile: join(folder, 'pair.log'),
    });
    await sleep(300);
    expect(groupAlive(engine.pid)).toBe(true);
    await engine.stop(5000);
    expect(groupAlive(engine.pid)).toBe(false);
    // Nor its watchdog, at once (left alone it would notice within a second).
    expect(await until(() => !running('pair-watchdog'), 200)).toBe(true);
  });

  it('kills what ignores SIGTERM once the grace period is over', async () => {
    const engine = supervise({
      name: 'stubborn',
      command: 'sh',
      // An ignored signal stays ignored in the children: neither the shell nor its sleep ends on SIGTERM.
      args: ['-c', 'trap "" TERM; sleep 300 & wait; wait'],
      logFile: join(folder, 'stubborn.log'),
    });
    await sleep(300);
    const started = performance.now();
    await engine.stop(500);
    expect(groupAlive(engine.pid)).toBe(false);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('leaves nothing running when the supervising process is killed outright', async () => {
    const script = join(folder, 'parent.ts');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      script,
      `import { supervise } from ${JSON.stringify(join(import.meta.dirname, '../src/supervise.ts'))};
const engine = supervise({ name: 'orphan', command: 'sh', args: ['-c', 'sleep 300 & wait'], logFile: ${JSON.stringify(join(folder, 'orphan.log'))} });
console.log(engine.pid);
setInterval(() => {}, 1000);
`,
    );
    const parent = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pgid = await new Promise<number>((resolve) =>
      parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    await sleep(300);
    expect(groupAlive(pgid)).toBe(true);
    parent.kill('SIGKILL');
    expect(await until(() => !groupAlive(pgid), 15_000)).toBe(true);
  });

  it('says why an engine failed to become healthy when it exits first, with its log', async () => {
    const engine = supervise({
      name: 'broken',
      command: 'sh',
      args: ['-c', 'echo "port already in use" >&2; exit 3'],
      logFile: join(folder, 'broken.log'),
    });
    await expect(waitHealthy(engine, 'http://127.0.0.1:1/health', 10_000)).rejects.toThrow(
      /broken exited while starting[\s\S]*port already in use/,
    );
    expect(await engine.exited).toBe(3);
  });

  it('fails a one-shot step that exits non-zero, quoting its output', async () => {
    const logFile = join(folder, 'step.log');
    await runStep({ what: 'fine step', command: 'sh', args: ['-c', 'echo fetched'], logFile });
    expect(readFileSync(logFile, 'utf8')).toContain('fetched');
    await expect(
      runStep({
        what: 'bad step',
        command: 'sh',
        args: ['-c', 'echo "artifact not found"; exit 1'],
        logFile,
      }),
    ).rejects.toThrow(/bad step failed \(exit code 1\)[\s\S]*artifact not found/);
  });
});
