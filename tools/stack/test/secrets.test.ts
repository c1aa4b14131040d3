// The stack's settings: every value .env.example asks for is made once, the way it says, and never replaced.
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeSettings, settingsOf, writeStackEnv } from '../src/secrets.ts';

const EXAMPLE = join(import.meta.dirname, '../../../.env.example');
const example = readFileSync(EXAMPLE, 'utf8');

describe('the stack settings', () => {
  it('reads every setting of .env.example with the size its comment names', () => {
    const settings = new Map(settingsOf(example).map((setting) => [setting.name, setting]));
    expect(settings.get('POSTGRES_PASSWORD')).toMatchObject({ value: '', hexBytes: 24 });
    // "openssl rand -hex 24   (each)" covers the run of database roles under it.
    expect(settings.get('NEWS_DB_OWNER_PASSWORD')).toMatchObject({ value: '', hexBytes: 24 });
    expect(settings.get('KEYCLOAK_ADMIN_PASSWORD')).toMatchObject({ hexBytes: 16 });
    expect(settings.get('S3_ACCESS_KEY')).toMatchObject({ hexBytes: 10 });
    expect(settings.get('SEED_DEMO')).toMatchObject({ value: 'false', optional: true });
    expect(settings.get('NEWS_FEEDS')).toMatchObject({ value: '', optional: true });
    expect(settings.get('POSTGRES_PASSWORD')?.optional).toBe(false);
  });

  it('makes every required value, hex of the named size, and key pairs that belong together', () => {
    const values = completeSettings(settingsOf(example), new Map());
    for (const setting of settingsOf(example)) expect(values.get(setting.name), setting.name).toBeDefined();
    expect(values.get('POSTGRES_PASSWORD')).toMatch(/^[0-9a-f]{48}$/);
    expect(values.get('S3_ACCESS_KEY')).toMatch(/^[0-9a-f]{20}$/);
    expect(values.get('AUTH_DB_PASSWORD')).not.toBe(values.get('PROFILE_DB_PASSWORD'));
    for (const pair of ['CALLER_TOKEN', 'PROFILE_SERVICE_TOKEN', 'NOTIFICATION_SERVICE_TOKEN']) {
      const privateKey = createPrivateKey({
        key: Buffer.from(values.get(`${pair}_PRIVATE_KEY`) ?? '', 'base64'),
        format: 'der',
        type: 'pkcs8',
      });
      const publicKey = createPublicKey({
        key: Buffer.from(values.get(`${pair}_PUBLIC_KEY`) ?? '', 'base64'),
        format: 'der',
        type: 'spki',
      });
      const signature = sign(null, Buffer.from('caller'), privateKey);
      expect(verify(null, Buffer.from('caller'), publicKey, signature), pair).toBe(true);
    }
  });

  it('keeps the values written before, and lets a run choose the optional ones', () => {
    const folder = mkdtempSync(join(tmpdir(), 'stack-env-'));
    const file = join(folder, '.env');
    const first = writeStackEnv({ example: EXAMPLE, file, overrides: { SEED_DEMO: 'true' } });
    const second = writeStackEnv({
      example: EXAMPLE,
      file,
      overrides: { SEED_DEMO: 'false', POSTGRES_PASSWORD: 'not-a-secret-change' },
    });
    expect(first.get('SEED_DEMO')).toBe('true');
    expect(second.get('SEED_DEMO')).toBe('false');
    // PostgreSQL and Keycloak keep the first secrets they were started with: a secret never changes.
    expect(second.get('POSTGRES_PASSWORD')).toBe(first.get('POSTGRES_PASSWORD'));
    expect(second.get('CALLER_TOKEN_PRIVATE_KEY')).toBe(first.get('CALLER_TOKEN_PRIVATE_KEY'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(
      `ROTUNDA_AUTH_CLIENT_SECRET=${first.get('ROTUNDA_AUTH_CLIENT_SECRET')}`,
    );
  });
});
