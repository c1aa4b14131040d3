// The faults benchmark's plan: how long each fault lasts, the steady load before it (the latency it is judged
// against) and the watch after the dependency returns, and the targets each figure is judged by (ADR 0049,
// ADR 0050).
export const FAULT_S = Number(process.env.BENCH_FAULTS_SECONDS ?? 10);
/** The load unharmed before each fault, so that one fault's aftermath does not run into the next. */
export const STEADY_S = Math.max(3, FAULT_S / 2);
/**
 * The load unharmed before the first fault; the read p50 of its second half (the first warms the processes up) is
 * what "normal latency" means after every fault.
 */
export const BASELINE_S = 2 * STEADY_S;
/** How long the load is watched after the dependency returns. */
export const OBSERVE_S = Math.max(6, FAULT_S * 1.5);
/** A dependency not back this long after its fault ended is reported as never back. */
export const RETURN_GIVE_UP_S = 60;
/** Latency is normal again once a second's read p50 is within this factor of the baseline's. */
export const NORMAL_LATENCY_FACTOR = 2;
/** The window that p50 is taken over, and the step it slides by. */
export const LATENCY_WINDOW_MS = 1000;
export const LATENCY_STEP_MS = 250;
/** A window with fewer reads than this says nothing about latency. */
export const LATENCY_MIN_READS = 5;
/** Live unread-count streams held open through the gateway-worker fault. */
export const STREAMS = 6;
/** A cut stream is opened again after this pause, as the web app's EventSource does. */
export const STREAM_RECONNECT_MS = 500;
/** One profile picture uploaded this often through the whole run. */
export const UPLOAD_EVERY_MS = 1000;
/** The demo member signs in this often through the whole run. */
export const SIGN_IN_EVERY_MS = 2000;
/** The upload store's disk for this benchmark: a tmpfs this big, filled for the disk fault. */
export const UPLOAD_DISK_MB = 64;
export const TARGETS = {
  lostWrites: 0,
  /** Reads while another replica of what died lives: the service-replica and gateway-worker faults. */
  failedReadsWhileAReplicaLives: 0,
  recoveryMs: 10_000,
} as const;
