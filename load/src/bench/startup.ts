// `npm run bench -- startup`: the time from starting the product to a healthy /healthz, over a few starts.
import { median, print, save, startProduct, stopProduct } from './harness.ts';

const STARTUP_RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 3);

export async function benchStartup(): Promise<void> {
  const runs: number[] = [];
  for (let run = 0; run < STARTUP_RUNS; run++) {
    const { child, seconds } = await startProduct();
    runs.push(seconds);
    await stopProduct(child);
  }
  const medianSeconds = median(runs);
  print('\nnpm start → /healthz 200 (installed, built checkout, data reused)');
  print(
    `  median ${medianSeconds.toFixed(1)} s over ${runs.length} runs (${runs.map((s) => s.toFixed(1)).join(', ')} s); target ≤ 30 s`,
  );
  save('startup', { runsSeconds: runs, medianSeconds, targetSeconds: 30 });
}
