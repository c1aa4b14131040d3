// The upload store's disk for the faults benchmark: DATA_DIR/s3, where the embedded S3 server keeps its objects,
// on a tmpfs of its own (emptied at every run), which the disk fault fills with a ballast file until the kernel
// refuses another byte (ENOSPC), then empties again. Mounting needs root; without it the fault is left out.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UPLOAD_DISK_MB } from './plan.ts';

const mounted = (dir: string) =>
  readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .some((line) => line.split(' ')[1] === dir);

export interface UploadDisk {
  /** Writes the ballast until the disk is full; answers the bytes written. */
  fill: () => number;
  empty: () => void;
  unmount: () => void;
}

/** Mounts the tmpfs on `dir`; answers why not when it cannot. */
export function mountUploadDisk(dir: string): UploadDisk | string {
  if (process.getuid?.() !== 0) return 'mounting a small disk for the uploads needs root';
  mkdirSync(dir, { recursive: true });
  // A run that was killed left its disk mounted.
  if (mounted(dir)) execFileSync('umount', [dir]);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${UPLOAD_DISK_MB}m,mode=0755`, 'tmpfs', dir]);
  } catch (error) {
    return `mount -t tmpfs failed: ${(error as Error).message.split('\n')[0]}`;
  }
  const ballast = join(dir, 'ballast');
  return {
    fill: () => {
      const fd = openSync(ballast, 'w');
      const chunk = Buffer.alloc(1 << 20);
      let written = 0;
      try {
        for (;;) written += writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
      return written;
    },
    empty: () => rmSync(ballast, { force: true }),
    unmount: () => {
      if (mounted(dir)) execFileSync('umount', ['--lazy', dir]);
    },
  };
}
