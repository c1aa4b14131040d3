// The excerpt a failed test:engines run prints: the last warnings and errors of a log, without stack traces, the
// lines cut to a readable length, and nothing (but a line saying so) for a log that is missing or clean.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logExcerpt, problemLines } from '../src/log-excerpt.ts';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'engines-log-excerpt-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const KEYCLOAK_LOG = [
  '2026-12-02 18:06:04,001 INFO  [io.quarkus] (main) Keycloak 26.7.3 started',
  '2026-12-02 18:06:05,267 WARN  [org.keycloak.events] (executor-thread-2) type="TOKEN_EXCHANGE_ERROR", reason="subject_token validation failure"',
  '2026-12-02 18:06:06,000 DEBUG [org.keycloak.events] (executor-thread-2) type="REFRESH_TOKEN"',
  '2026-12-02 18:06:07,100 ERROR [org.keycloak.services] (executor-thread-3) KC-SERVICES0057: Logout failed',
  '\tat org.keycloak.protocol.oidc.OIDCLoginProtocol.backchannelLogout(OIDCLoginProtocol.java:481)',
  'Caused by: java.net.ConnectException: Connection refused',
].join('\n');

describe('problemLines', () => {
  it("keeps Keycloak's and the product's warnings and errors, oldest first, and no stack-trace lines", () => {
    const keycloak = join(folder, 'keycloak.log');
    writeFileSync(keycloak, KEYCLOAK_LOG);
    expect(problemLines(keycloak)).toEqual([
      expect.stringContaining('TOKEN_EXCHANGE_ERROR'),
      expect.stringContaining('KC-SERVICES0057'),
    ]);
    const product = join(folder, 'product.log');
    writeFileSync(
      product,
      '  ✓ healthy (43.5 s)\n  [gateway] warn: the watch ended — 14 UNAVAILABLE\n  [auth] error: refresh failed\nStopped.\n',
    );
    expect(problemLines(product)).toEqual([
      '  [gateway] warn: the watch ended — 14 UNAVAILABLE',
      '  [auth] error: refresh failed',
    ]);
  });

  it('answers only the last lines asked for, each cut to a readable length', () => {
    const log = join(folder, 'long.log');
    writeFileSync(
      log,
      Array.from({ length: 100 }, (_, i) => `WARN line ${i} ${'x'.repeat(i === 99 ? 2000 : 0)}`).join('\n'),
    );
    const lines = problemLines(log, 40);
    expect(lines).toHaveLength(40);
    expect(lines[0]).toBe('WARN line 60 ');
    expect(lines[39]?.length).toBeLessThan(700);
    expect(lines[39]?.endsWith(' …')).toBe(true);
  });

  it('answers nothing for a missing log', () => {
    expect(problemLines(join(folder, 'none.log'))).toEqual([]);
  });
});

describe('logExcerpt', () => {
  it('names the log and indents its lines, or says it had none', () => {
    const keycloak = join(folder, 'keycloak.log');
    writeFileSync(keycloak, KEYCLOAK_LOG);
    const excerpt = logExcerpt('keycloak.log', keycloak).split('\n');
    expect(excerpt[0]).toBe(`test:engines: the last 2 warnings and errors of keycloak.log (${keycloak}):`);
    expect(excerpt[1]).toMatch(/^ {2}2026-12-02 18:06:05,267 WARN/);
    expect(logExcerpt('product.log', join(folder, 'none.log'))).toMatch(
      /^test:engines: no warnings or errors/,
    );
  });
});
