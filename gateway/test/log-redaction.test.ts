// Secrets in URLs never reach a log line: the gateway process's request log shows reset and confirmation links
// and token-, code- or key-like query values blanked, and so does any line a service writes through the service
// kit's logger (a mail's link, an error quoting a URL, an access token).
import { Writable } from 'node:stream';
import { createLogger } from '@rotunda/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAuth, signingKey, startFakeAuth } from './support/fake-auth.ts';
import { type GatewayProcess, startGatewayProcess } from './support/gateway-process.ts';

const RESET_TOKEN = 'q7Vw3sYk2Lr9ZbN0pXcTfU1mHgJdE5aR8yKoWiSv4Q';
const CONFIRM_TOKEN = 'Zp4Lm8Rt2Ws6Xc0Vb3Nq7Yh1Ju5Ki9Ol2Pa6Sd0Fg3H';
const JWT =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0YjFmMmE1MiIsImV4cCI6MTc5OTk5OTk5OX0.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';
const SECRETS = [RESET_TOKEN, CONFIRM_TOKEN, JWT, 'abc123code', 's3cr3t-key', 'oauth-state-1', 'refresh-xyz'];

describe('the gateway’s request log', () => {
  let auth: FakeAuth;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    auth = await startFakeAuth([await signingKey('key-1')]);
    gateway = await startGatewayProcess({ AUTH_SERVICE_ADDR: auth.address });
  });
  afterAll(async () => {
    await gateway?.stop();
    await auth?.server.shutdown();
  });

  it('blanks reset and confirmation tokens and secret query values, keeping the rest of the URL', async () => {
    const reset = await fetch(`${gateway.base}/auth/reset-password/${RESET_TOKEN}?lang=en`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'Member#2024x' }),
    });
    expect(reset.status).toBe(200);
    expect(auth.callsTo('resetPassword')[0]?.request.token).toBe(RESET_TOKEN);
    for (const path of [
      `/reset-password/${RESET_TOKEN}`,
      `/confirm-email/${CONFIRM_TOKEN}`,
      `/auth/email-domains?code=abc123code&page=2&api_key=s3cr3t-key`,
      `/auth/email-domains?state=oauth-state-1&access_token=${JWT}`,
      `/realms/rotunda/protocol/openid-connect/token?refresh_token=refresh-xyz`,
    ])
      await (await fetch(`${gateway.base}${path}`)).arrayBuffer();

    // Lines are written as requests end; wait until the last one is there.
    const deadline = Date.now() + 5000;
    while (!gateway.output().includes('openid-connect/token') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const urls = gateway
      .logLines()
      .map((line) => (line.req as { url?: string } | undefined)?.url)
      .filter(Boolean);
    expect(urls).toEqual([
      '/auth/reset-password/[redacted]?lang=en',
      '/reset-password/[redacted]',
      '/confirm-email/[redacted]',
      '/auth/email-domains?code=[redacted]&page=2&api_key=[redacted]',
      '/auth/email-domains?state=[redacted]&access_token=[redacted]',
      '/realms/rotunda/protocol/openid-connect/token?refresh_token=[redacted]',
    ]);
    for (const secret of SECRETS) expect(gateway.output()).not.toContain(secret);
  });
});

describe('the service kit’s logger', () => {
  function capture() {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    return { logger: createLogger('auth', 'info', destination), text: () => lines.join('') };
  }

  it('blanks the same secrets in any line, its children’s too', () => {
    const { logger, text } = capture();
    logger.info({ link: `http://localhost:8080/confirm-email/${CONFIRM_TOKEN}` }, 'confirmation mail sent');
    logger.warn(`reset link https://rotunda.example/reset-password/${RESET_TOKEN} could not be mailed`);
    logger
      .child({ call: 'RefreshTokens' })
      .error(
        { err: new Error(`upstream refused /token?refresh_token=refresh-xyz&code=abc123code`) },
        'failed',
      );
    logger.info({ authorization: `Bearer ${JWT}` }, 'header seen');
    const written = text();
    for (const secret of SECRETS) expect(written).not.toContain(secret);
    expect(written).toContain(`http://localhost:8080/confirm-email/[redacted]`);
    expect(written).toContain('https://rotunda.example/reset-password/[redacted] could not be mailed');
    expect(written).toContain('/token?refresh_token=[redacted]&code=[redacted]');
    expect(written).toContain('"authorization":"Bearer [redacted]"');
    // Every line is still one JSON object.
    for (const line of written.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('leaves ordinary URLs and values alone', () => {
    const { logger, text } = capture();
    logger.info(
      { url: '/api/profiles/search?search=elk+grove&group=Legislature&offset=20', zip_code: 95814 },
      'directory page',
    );
    const line = JSON.parse(text());
    expect(line.url).toBe('/api/profiles/search?search=elk+grove&group=Legislature&offset=20');
    expect(line.zip_code).toBe(95814);
  });
});
