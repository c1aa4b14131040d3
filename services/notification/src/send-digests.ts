// `node src/send-digests.ts` (or `npm run admin -- send-digests`): sends the daily and weekly digests due now and
// exits, as `npm start` runs it every DIGEST_EVERY_MINUTES and the Kubernetes CronJob does. Reads the notification
// service's configuration and names itself to the auth and profile services with that service's key; builds only
// the store, the members and the mailer. Prints one line ("Digests: 12 sent, 340 members considered, 1.2 s");
// exits 1 with the error when the run failed. A run that races another, or repeats one, mails nobody twice.
// SIGTERM or SIGINT (npm start stopping, the CronJob's deadline) ends it after the mail being sent, exit 75: the
// members not reached yet are due at the next run.
import {
  createLogger,
  createServiceSigner,
  loadConfigOrExit,
  serverConfigSchema,
  useServiceIdentity,
} from '@rotunda/service-kit';
import { notificationConfigSchema } from './config.ts';
import { wireDigests } from './wiring.ts';

const config = loadConfigOrExit(notificationConfigSchema, 'send-digests');
// Only the key this job signs its calls with: it serves nothing, so it needs no keys of callers.
const { SERVICE_TOKEN_PRIVATE_KEY } = loadConfigOrExit(
  serverConfigSchema.pick({ SERVICE_TOKEN_PRIVATE_KEY: true }),
  'send-digests',
);
if (SERVICE_TOKEN_PRIVATE_KEY)
  useServiceIdentity(createServiceSigner('notification', SERVICE_TOKEN_PRIVATE_KEY));

const stop = new AbortController();
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    stop.abort();
    // A mail server or database that does not answer must not hold a stopping machine.
    setTimeout(() => process.exit(75), 10_000).unref();
  });

const started = performance.now();
// Warnings and errors only (a member's mail that failed): the run's outcome is the one line below.
const { digests, close } = wireDigests(config, createLogger('send-digests', 'warn'));
try {
  const run = await digests.send(new Date(), stop.signal);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const members = `${run.membersConsidered} member${run.membersConsidered === 1 ? '' : 's'}`;
  const stopped = run.stopped ? ' (stopped: the rest at the next run)' : '';
  process.stdout.write(`Digests: ${run.sent} sent, ${members} considered, ${seconds} s${stopped}\n`);
  if (run.stopped) process.exitCode = 75; // EX_TEMPFAIL
} catch (error) {
  process.stderr.write(`send-digests: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await close();
}
// Nothing left open should keep the process, but a job must end whatever a library still holds.
process.exit(process.exitCode ?? 0);
