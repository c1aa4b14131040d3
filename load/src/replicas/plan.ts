// The replicas benchmark's plan: how long the mixed load runs, when replicas are killed and restarted, how long a
// probe waits for search, and the targets each figure is judged by.
export const LOAD_S = Number(process.env.BENCH_REPLICAS_SECONDS ?? 60);
export const KILL_AT_S = LOAD_S / 3;
export const RESTART_DELAY_MS = Math.round((LOAD_S / 3) * 1000);
export const BASELINE_S = Number(process.env.BENCH_REPLICAS_BASELINE_SECONDS ?? KILL_AT_S);
/** How long a probe waits for search to find its write before it counts as not found. */
export const CONVERGENCE_GIVE_UP_MS = 10_000;
export const TARGETS = {
  failedReads: 0,
  lostWrites: 0,
  duplicateWrites: 0,
  maxConvergenceMs: 2000,
  share: [0.3, 0.7],
} as const;
/** A phase with fewer of a service's calls than this is too small to judge its spread. */
export const JUDGED_CALLS = 20;
export const KILLED = ['profile', 'post'] as const;
