// The Node flags every service and the gateway run with: the one-machine product passes them to each process it
// starts, and each image's command line carries them (the deployment checks hold the two together).

/**
 * A young generation of 8 MB per semi-space rather than the 64 MB V8 sizes it to on a machine with this much
 * memory: each minor collection pauses for less, which with three busy processes on two cores is what the slowest
 * searches waited on (ADR 0017, 0033), and each process holds less memory.
 */
export const NODE_FLAGS = ['--max-semi-space-size=8'] as const;
