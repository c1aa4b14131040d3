// The browser suite's lanes: `npm test -w e2e` (run-lanes.ts) runs the spec files in two Playwright runs at once,
// each against a product of its own — own ports, data folder, database and mail inbox — so that no journey sees
// another's posts, sessions or mail. Lane 0 is the product `npm start` runs by default; lane n moves every port
// by 100·n and keeps its data in .data/e2e-lane-n. The suite waits mostly on the product and the browser, not on
// the CPU (about a third of two cores in one lane), so two lanes take about half the time.
import { resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '..');
const STEP = 100;

export interface Lane {
  index: number;
  baseURL: string;
  mailURL: string;
  dataDir: string;
  /** Playwright's output folder, relative to e2e/: a run empties it as it starts. */
  outputDir: string;
  /** What `npm start` needs to run this lane's product beside the others. */
  productEnv: Record<string, string>;
}

export function laneOf(value: string | undefined): Lane {
  const index = Number(value ?? 0);
  if (!Number.isInteger(index) || index < 0 || index > 9)
    throw new Error(`E2E_LANE must be 0 to 9, not ${value}`);
  const shift = STEP * index;
  const port = 8080 + shift;
  const mailPort = 1080 + shift;
  const dataDir = index === 0 ? resolve(REPO, '.data') : resolve(REPO, '.data', `e2e-lane-${index}`);
  return {
    index,
    baseURL: `http://localhost:${port}`,
    mailURL: `http://localhost:${mailPort}`,
    dataDir,
    outputDir: index === 0 ? 'test-results' : `test-results-lane-${index}`,
    productEnv:
      index === 0
        ? {}
        : {
            PORT: String(port),
            DATA_DIR: dataDir,
            POSTGRES_PORT: String(54329 + shift),
            S3_PORT: String(9000 + shift),
            MAILDEV_WEB_PORT: String(mailPort),
            MAILDEV_SMTP_PORT: String(1025 + shift),
            GRPC_PORT_BASE: String(20051 + shift),
            METRICS_PORT_BASE: String(9464 + shift),
          },
  };
}
