// Services start together: the demo seed asks the org and auth services for ids, so it waits for them to
// answer, trying again until a deadline.
import type { Logger } from '@rotunda/service-kit';

export interface WaitOptions {
  /** Give up after this long (default 60 s). */
  timeoutMs?: number;
  /** Pause between tries (default 1 s). */
  intervalMs?: number;
}

export async function untilAnswered<T>(
  what: string,
  ask: () => Promise<T>,
  logger: Pick<Logger, 'info'>,
  { timeoutMs = 60_000, intervalMs = 1000 }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let told = false;
  for (;;) {
    try {
      return await ask();
    } catch (error) {
      if (Date.now() + intervalMs > deadline)
        throw new Error(
          `${what} did not answer within ${Math.round(timeoutMs / 1000)} s: ${error instanceof Error ? error.message : String(error)}`,
        );
      if (!told) logger.info({ waitingFor: what }, 'demo seed waiting for another service');
      told = true;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
