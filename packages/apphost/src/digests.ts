// The email digests' schedule on one machine (ADR 0042): every DIGEST_EVERY_MINUTES, the notification service's
// send-digests entry point runs with that service's environment and sends the digests that are due. One run at a
// time; a run sends each member's digest at most once per period, so a restart that runs it again sends nothing
// twice. Each run's output goes to the digests log; a failed run is reported on the console.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './config.ts';

export interface DigestSchedule {
  stop: () => Promise<void>;
}

export function scheduleDigests(options: {
  everyMs: number;
  env: Record<string, string>;
  logDir: string;
  print: (text: string) => void;
}): DigestSchedule {
  const log = createWriteStream(join(options.logDir, 'digests.log'), { flags: 'a' });
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  let running: ReturnType<typeof spawn> | undefined;

  const runOnce = () =>
    new Promise<void>((resolve) => {
      const child = spawn(process.execPath, ['src/send-digests.ts'], {
        cwd: join(REPO_ROOT, 'services', 'notification'),
        env: { ...process.env, ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      running = child;
      child.stdout.pipe(log, { end: false });
      child.stderr.pipe(log, { end: false });
      child.on('error', (error) => {
        options.print(`  ✗ sending the digests could not start: ${error.message}`);
        resolve();
      });
      child.on('exit', (code) => {
        running = undefined;
        if (code !== 0 && !stopped)
          options.print(`  ✗ sending the digests failed (exit ${code}); see digests.log`);
        resolve();
      });
    });

  const tick = () => {
    if (stopped) return;
    current = runOnce().then(() => {
      if (!stopped) timer = setTimeout(tick, options.everyMs);
    });
  };
  tick();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      running?.kill('SIGTERM');
      await current;
      log.end();
    },
  };
}
