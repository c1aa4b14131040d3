// The faults the benchmark makes, each as an operator would meet it: how it is made, how the dependency comes
// back (the apphost restarts a killed service replica or PostgreSQL after RESTART_DELAY_MS, the gateway's primary
// forks a killed worker again, the bench empties the full disk), and how the bench sees it is back.
import { readdirSync, readFileSync } from 'node:fs';
import { gatewayRequests, handledCalls, readPids } from '../replicas/metrics.ts';
import type { UploadDisk } from './disk.ts';

/** An engine of `npm run engines` that the bench stops and starts again (@rotunda/engines' outage control). */
export interface EngineOutage {
  stop: (name: 'keycloak' | 'search' | 's3') => Promise<void>;
  start: (name: 'keycloak' | 'search' | 's3') => Promise<number>;
}

export interface Fault {
  name: string;
  /** What was done, for the report. */
  what: string;
  /** Another replica of what died lives on: no read may fail. */
  aReplicaLives: boolean;
  /** Live unread-count streams are held open through it. */
  streams: boolean;
  /** Which writes reach what failed: the first of them to succeed after the return is its recovery. */
  writes: 'writes' | 'uploads' | 'sign-ins';
  /** Makes the fault; answers a line for the events. */
  inject: () => Promise<string>;
  /** Called when the fault's time is up: brings back what the apphost does not; may answer a line for the events. */
  end: () => Promise<string | undefined>;
  /** Whether the dependency is back (polled). */
  back: () => Promise<boolean>;
}

/** The gateway primary's worker processes, from Linux's /proc (the apphost lists the primary only). */
export function gatewayWorkers(primary: number): number[] {
  const workers: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent's pid; the command name before it may hold spaces.
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      if (parent === primary) workers.push(Number(entry));
    } catch {
      // The process ended while being read.
    }
  }
  return workers;
}

const pidOf = (dataDir: string, name: string) => readPids(dataDir)[name]?.pid;

/** kill -9 of one service replica; the apphost restarts it. */
export function killReplica(dataDir: string, name: string): Fault {
  let victim: number | undefined;
  return {
    name: `kill -9 ${name}`,
    what: `service replica ${name} killed outright; its twin lives; the apphost restarts it after RESTART_DELAY_MS`,
    aReplicaLives: true,
    streams: false,
    writes: 'writes',
    inject: async () => {
      victim = pidOf(dataDir, name);
      process.kill(victim as number, 'SIGKILL');
      return `kill -9 ${name} (pid ${victim})`;
    },
    end: async () => undefined,
    back: async () => {
      const listed = readPids(dataDir)[name];
      if (!listed || listed.pid === victim) return false;
      return (await handledCalls(listed.metricsPorts[0] ?? 0, 1)) !== undefined;
    },
  };
}

/** kill -9 of one gateway worker with live streams open; the gateway's primary forks another. */
export function killGatewayWorker(dataDir: string): Fault {
  let victim: number | undefined;
  const primary = () => pidOf(dataDir, 'gateway') as number;
  return {
    name: 'kill -9 gateway worker',
    what: 'one of the 2 gateway workers killed outright, unread-count streams open; its primary forks another',
    aReplicaLives: true,
    streams: true,
    writes: 'writes',
    inject: async () => {
      victim = gatewayWorkers(primary())[0];
      process.kill(victim as number, 'SIGKILL');
      return `kill -9 gateway worker (pid ${victim})`;
    },
    end: async () => undefined,
    back: async () => {
      const workers = gatewayWorkers(primary());
      if (workers.length < 2 || workers.includes(victim as number)) return false;
      const ports = readPids(dataDir).gateway?.metricsPorts ?? [];
      return (await gatewayRequests(ports)).every((count) => count !== undefined);
    },
  };
}

/** kill -9 of PostgreSQL's postmaster; the apphost starts it again on its data and port. */
export function killPostgres(dataDir: string): Fault {
  let victim: number | undefined;
  return {
    name: 'kill -9 PostgreSQL',
    what: "the one PostgreSQL's postmaster killed outright; the apphost starts it again after RESTART_DELAY_MS",
    aReplicaLives: false,
    streams: false,
    writes: 'writes',
    inject: async () => {
      victim = pidOf(dataDir, 'postgres');
      process.kill(victim as number, 'SIGKILL');
      return `kill -9 PostgreSQL (pid ${victim})`;
    },
    end: async () => undefined,
    back: async () => {
      const now = pidOf(dataDir, 'postgres');
      return now !== undefined && now !== victim;
    },
  };
}

/** The upload store's disk filled until it refuses a byte; emptied when the fault's time is up. */
export function fillUploadDisk(disk: UploadDisk): Fault {
  let emptied = false;
  return {
    name: 'upload disk full',
    what: "the embedded S3 server's disk (a tmpfs) filled with a ballast file until ENOSPC; the ballast removed after",
    aReplicaLives: false,
    streams: false,
    writes: 'uploads',
    inject: async () => {
      emptied = false;
      const bytes = disk.fill();
      return `upload disk filled (${(bytes / 2 ** 20).toFixed(1)} MB of ballast)`;
    },
    end: async () => {
      disk.empty();
      emptied = true;
      return undefined;
    },
    back: async () => emptied,
  };
}

const ENGINES = {
  search: { label: 'the search engine', writes: 'writes' },
  keycloak: { label: 'Keycloak', writes: 'sign-ins' },
  s3: { label: 'the S3 server', writes: 'uploads' },
} as const;

/** A real engine's process ended, its data kept; started again on its ports when the fault's time is up. */
export function stopEngine(outage: EngineOutage, name: keyof typeof ENGINES): Fault {
  const { label, writes } = ENGINES[name];
  let started = false;
  return {
    name: `stop ${name === 'search' ? 'search engine' : label}`,
    what: `${label} of npm run engines stopped (its process ended, its data kept), started again after the fault`,
    aReplicaLives: false,
    streams: false,
    writes,
    inject: async () => {
      started = false;
      await outage.stop(name);
      return `${label} stopped`;
    },
    end: async () => {
      const ms = await outage.start(name);
      started = true;
      return `${label} started again, healthy in ${(ms / 1000).toFixed(1)} s`;
    },
    back: async () => started,
  };
}
