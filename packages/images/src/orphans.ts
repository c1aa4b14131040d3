// Uploads no record took are removed: an image is stored before the record that shows it (create-profile uploads
// the picture first), so a member who never finishes, or a script that only uploads, would leave objects behind
// for ever. A sweep lists one kind's objects older than the grace period, asks the owning service which of them
// its records reference, and removes the rest. Removing is idempotent, so replicas may sweep at the same time.
import { isMediaKey, type MediaKind } from './keys.ts';
import type { ListedObject, ObjectStore } from './object-store.ts';

/** An upload no record references after this long is removed. */
export const UPLOAD_GRACE_MS = 60 * 60 * 1000;

/**
 * A record may name an upload only while it is at least this much younger than the grace period. A sweep checks
 * references and removes moments later; an upload attached in between would lose its object. The margin is far
 * longer than any write takes, so an upload a record could still name is never one a sweep removes.
 */
export const ATTACH_MARGIN_MS = 5 * 60 * 1000;

/** How often each process sweeps (each replica on its own timer, at a random offset). */
export const SWEEP_INTERVAL_MS = 15 * 60 * 1000;

/** May a record still name an upload last written at `lastModified`? */
export function isAttachableUpload(lastModified: Date, now: number = Date.now()): boolean {
  return now - lastModified.getTime() < UPLOAD_GRACE_MS - ATTACH_MARGIN_MS;
}

export interface OrphanSweepOptions {
  store: Pick<ObjectStore, 'list' | 'remove'>;
  /** The kind of image this service owns: only keys under `<kind>/` are looked at. */
  kind: MediaKind;
  /** Of these keys, the ones a record references now (the others are removed). */
  referenced: (keys: readonly string[]) => Promise<Iterable<string>>;
  graceMs?: number;
  now?: () => number;
}

export interface SweepOutcome {
  /** Objects old enough to be checked. */
  checked: number;
  removed: string[];
}

/** One sweep: every unreferenced upload of the kind older than the grace period is removed. */
export async function sweepOrphanUploads({
  store,
  kind,
  referenced,
  graceMs = UPLOAD_GRACE_MS,
  now = Date.now,
}: OrphanSweepOptions): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { checked: 0, removed: [] };
  for await (const page of store.list(`${kind}/`)) {
    // Judged against the time the page was listed: whatever is younger may still be attached.
    const cutoff = now() - graceMs;
    // Anything not in the shape this package makes was not uploaded through it: left alone.
    const old = page.filter(
      (object: ListedObject) => isMediaKey(object.key) && object.lastModified.getTime() < cutoff,
    );
    if (old.length === 0) continue;
    outcome.checked += old.length;
    const kept = new Set(await referenced(old.map((object) => object.key)));
    for (const { key } of old) {
      if (kept.has(key)) continue;
      await store.remove(key);
      outcome.removed.push(key);
    }
  }
  return outcome;
}

export interface SweeperLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface OrphanSweeper {
  /** Stops the timer and waits for a sweep under way to finish. */
  stop(): Promise<void>;
}

/**
 * Sweeps every `intervalMs`, the first time after a random part of it, so replicas started together spread
 * their sweeps. A failed sweep (store or database down) is logged and tried again at the next turn.
 */
export function startOrphanSweeper(
  options: OrphanSweepOptions & {
    logger: SweeperLogger;
    intervalMs?: number;
    random?: () => number;
  },
): OrphanSweeper {
  const { logger, intervalMs = SWEEP_INTERVAL_MS, random = Math.random } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sweep().finally(() => {
        running = undefined;
        schedule(intervalMs);
      });
    }, delayMs);
    // A pending sweep never keeps the process alive.
    timer.unref();
  };

  const sweep = async () => {
    try {
      const { checked, removed } = await sweepOrphanUploads(options);
      if (removed.length > 0)
        logger.info({ kind: options.kind, checked, removed: removed.length }, 'orphan uploads removed');
    } catch (error) {
      logger.warn(
        { kind: options.kind, err: error instanceof Error ? error.message : String(error) },
        'orphan upload sweep failed',
      );
    }
  };

  schedule(Math.floor(random() * intervalMs));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
