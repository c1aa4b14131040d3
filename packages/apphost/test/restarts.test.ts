// A child of `npm start` that exits unexpectedly is restarted, with a delay that doubles with each exit in a row
// up to a ceiling and starts over once a process has run stably, and the console says which child died, how, and
// when it comes back; a child stopped on purpose stays stopped. Tiny Node scripts stand in for the services.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Child, RESTART_BACKOFF, restartDelayMs, startChild } from '../src/children.ts';

const dir = mkdtempSync(join(tmpdir(), 'rotunda-restarts-'));
// Each says it started (the tests wait for that line on the console) and exits at once, serves until SIGTERM
// (set up before it says so), or exits after 400 ms.
const STARTED = "console.log('started ' + process.pid);";
writeFileSync(join(dir, 'crash.mjs'), `${STARTED}\nprocess.exit(3);\n`);
writeFileSync(
  join(dir, 'serve.mjs'),
  `process.on('SIGTERM', () => process.exit(0));\nsetInterval(() => {}, 1000);\n${STARTED}\n`,
);
writeFileSync(join(dir, 'brief.mjs'), `${STARTED}\nsetTimeout(() => process.exit(1), 400);\n`);
// Says the heap ceiling V8 was given, then serves.
writeFileSync(
  join(dir, 'heap.mjs'),
  `import { getHeapStatistics } from 'node:v8';\nprocess.on('SIGTERM', () => process.exit(0));\nsetInterval(() => {}, 1000);\nconsole.log('heap ' + getHeapStatistics().heap_size_limit);\n`,
);

const running: Child[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((child) => child.stop(1000)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let started = 0;

function start(
  script: string,
  backoff = { firstMs: 100, maxMs: 400, stableMs: 10_000 },
  maxOldSpaceMiB?: number,
) {
  const printed: string[] = [];
  started += 1;
  const name = `child-${started}`;
  const child = startChild({
    name,
    script,
    cwd: dir,
    env: {},
    logDir: dir,
    print: (text) => printed.push(text),
    backoff,
    maxOldSpaceMiB,
  });
  running.push(child);
  /** The running process has started (its first line reached the console). */
  const ready = () =>
    until(() => alive(child) && printed.includes(`  [${name}] started ${child.process.pid}`));
  return { child, printed, name, ready };
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const alive = (child: Child) => child.process.exitCode === null && child.process.signalCode === null;

describe('a child’s heap', () => {
  // Without a ceiling V8 sizes the heap from the machine's memory: gigabytes here, and a busy service leaves
  // hundreds of megabytes of garbage uncollected.
  it('is capped at NODE_MAX_OLD_SPACE_MIB when it is set, and left to V8 otherwise', async () => {
    const heapOf = async (maxOldSpaceMiB?: number) => {
      const { printed, name } = start('heap.mjs', undefined, maxOldSpaceMiB);
      await until(() => printed.some((line) => line.startsWith(`  [${name}] heap `)));
      const line = printed.find((text) => text.startsWith(`  [${name}] heap `)) as string;
      return Number(line.slice(`  [${name}] heap `.length)) / 2 ** 20;
    };
    const capped = await heapOf(128);
    // The old space's 128 MiB plus the young generation's semi-spaces (8 MiB each, NODE_FLAGS).
    expect(capped).toBeGreaterThanOrEqual(128);
    expect(capped).toBeLessThan(160);
    expect(await heapOf()).toBeGreaterThan(160);
  });
});

describe('restarting a child', () => {
  it('waits 1 s, doubling to 30 s, after each exit in a row', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((exits) => restartDelayMs(exits, RESTART_BACKOFF))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('restarts a child killed outright, saying which, how and when, and the new process runs', async () => {
    const { child, printed, name, ready } = start('serve.mjs');
    await ready();
    const first = child.process.pid;
    child.process.kill('SIGKILL');
    await until(() => child.process.pid !== first);
    await ready();
    expect(printed.find((line) => line.includes('✗'))).toMatch(
      new RegExp(
        `^  ✗ \\d\\d:\\d\\d:\\d\\d ${name} exited unexpectedly \\(signal SIGKILL\\) after [\\d.]+ s; ` +
          `restarting in 0\\.1 s, at \\d\\d:\\d\\d:\\d\\d; see .*${name}\\.log$`,
      ),
    );
    expect(printed.find((line) => line.includes('↻'))).toMatch(
      new RegExp(`^  ↻ \\d\\d:\\d\\d:\\d\\d ${name} restarted \\(pid ${child.process.pid}\\)$`),
    );
    // Both processes write to the same log file (which the console echo may run ahead of).
    const log = () => readFileSync(join(dir, `${name}.log`), 'utf8');
    await until(() => log().includes(`started ${child.process.pid}\n`));
    expect(log()).toContain(`started ${first}\n`);
  });

  it('backs off exponentially while the child keeps exiting, up to the ceiling', async () => {
    const { printed } = start('crash.mjs');
    await until(() => printed.filter((line) => line.includes('✗')).length >= 5);
    const deaths = printed.filter((line) => line.includes('✗'));
    expect(deaths.every((line) => line.includes('(exit code 3)'))).toBe(true);
    expect(deaths.slice(0, 5).map((line) => /restarting in ([\d.]+ s)/.exec(line)?.[1])).toEqual([
      '0.1 s',
      '0.2 s',
      '0.4 s',
      '0.4 s',
      '0.4 s',
    ]);
  });

  it('starts the delays over after a process ran stably', async () => {
    const { printed } = start('brief.mjs', { firstMs: 100, maxMs: 1000, stableMs: 300 });
    await until(() => printed.filter((line) => line.includes('✗')).length >= 3);
    const delays = printed
      .filter((line) => line.includes('✗'))
      .map((line) => /restarting in ([\d.]+ s)/.exec(line)?.[1]);
    expect(delays.slice(0, 3)).toEqual(['0.1 s', '0.1 s', '0.1 s']);
  });

  it('does not restart a child stopped on purpose, nor one whose restart was pending', async () => {
    const { child, printed, ready } = start('serve.mjs');
    await ready();
    const pid = child.process.pid;
    await child.stop(1000);
    expect(child.process.exitCode).toBe(0);
    const crashing = start('crash.mjs', { firstMs: 300, maxMs: 300, stableMs: 10_000 });
    await until(() => crashing.printed.some((line) => line.includes('✗')));
    await crashing.child.stop(1000);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(child.process.pid).toBe(pid);
    expect(printed.some((line) => line.includes('restart'))).toBe(false);
    expect(crashing.printed.some((line) => line.includes('↻'))).toBe(false);
  });
});
