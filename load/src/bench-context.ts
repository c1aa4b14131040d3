// What bench.ts hands each bench that runs the product itself (replicas, faults, web): the port and data
// directory to run it on, how to start and stop it, and where to save and print what the bench measured.
import type { ChildProcess } from 'node:child_process';

export interface BenchContext {
  port: number;
  dataDir: string;
  startProduct: (env: Record<string, string>) => Promise<{ child: ChildProcess }>;
  stopProduct: (child: ChildProcess) => Promise<void>;
  save: (name: string, data: unknown) => void;
  print: (text?: string) => void;
}
