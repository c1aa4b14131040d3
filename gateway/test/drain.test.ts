// The gateway process on SIGTERM (a rollout, a scale-down): requests in flight finish and are answered, a client's
// kept-alive connection does not hold the process for its idle timeout, then the process exits 0; a request still
// running after SHUTDOWN_GRACE_MS is cut and the process still exits 0.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeAuth, signingKey, startFakeAuth } from './support/fake-auth.ts';
import { type GatewayProcess, startGatewayProcess } from './support/gateway-process.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let auth: FakeAuth | undefined;
let gateway: GatewayProcess | undefined;
afterEach(async () => {
  await gateway?.stop();
  await auth?.server.shutdown();
  gateway = undefined;
  auth = undefined;
});

/** POST /auth/check-email on a kept-alive connection; answers the status and the Connection header. */
function checkEmail(base: string): Promise<{ status: number; connection?: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(
      `${base}/auth/check-email`,
      { method: 'POST', headers: { 'content-type': 'application/json', connection: 'keep-alive' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      },
    );
    req.on('error', (error) => resolve({ error: error.message }));
    req.end(JSON.stringify({ email: 'someone@example.com' }));
  });
}

async function exitOf(process: GatewayProcess['process']) {
  if (process.exitCode !== null || process.signalCode !== null)
    return { code: process.exitCode, signal: process.signalCode };
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    process.once('exit', (code, signal) => resolve({ code, signal })),
  );
}

describe('the gateway on SIGTERM', () => {
  it('answers every request in flight, closes kept-alive connections, then exits 0', async () => {
    auth = await startFakeAuth([await signingKey('key-1')]);
    gateway = await startGatewayProcess({ AUTH_SERVICE_ADDR: auth.address, SHUTDOWN_GRACE_MS: '10000' });
    // A connection kept alive by an earlier request, idle now.
    expect(await checkEmail(gateway.base)).toMatchObject({ status: 200 });
    auth.answer('checkEmail', async () => {
      await sleep(1500);
      return { eligible: true };
    });
    const inFlight = Array.from({ length: 5 }, () => checkEmail((gateway as GatewayProcess).base));
    await sleep(300);
    const stopped = Date.now();
    gateway.process.kill('SIGTERM');
    const answers = await Promise.all(inFlight);
    // Each answer tells its client not to send more on the connection, which closes with it.
    expect(answers).toEqual(answers.map(() => ({ status: 200, connection: 'close' })));
    expect(await exitOf(gateway.process)).toEqual({ code: 0, signal: null });
    // Well before the kept-alive connections' 65 s idle timeout, and before the grace.
    expect(Date.now() - stopped).toBeLessThan(5000);
    // Nothing listens any more.
    expect(await checkEmail(gateway.base)).toMatchObject({ error: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('cuts a request still running when the grace is over, and exits 0', async () => {
    auth = await startFakeAuth([await signingKey('key-1')]);
    gateway = await startGatewayProcess({ AUTH_SERVICE_ADDR: auth.address, SHUTDOWN_GRACE_MS: '500' });
    auth.answer('checkEmail', async () => {
      await sleep(10_000);
      return { eligible: true };
    });
    const slow = checkEmail(gateway.base);
    await sleep(300);
    const stopped = Date.now();
    gateway.process.kill('SIGTERM');
    expect(await slow).toHaveProperty('error');
    expect(await exitOf(gateway.process)).toEqual({ code: 0, signal: null });
    expect(Date.now() - stopped).toBeLessThan(3000);
  });
});
