// Configuration fails fast with a message that names each bad variable and what it got.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, envBoolean, envList, envPort, loadConfig, serviceDefaults } from '../src/index.ts';

const schema = z.object({ ...serviceDefaults, GRPC_PORT: envPort(50055), FEEDS: envList() });

describe('loadConfig', () => {
  it('fills in the defaults of the one-machine setup', () => {
    const config = loadConfig(schema, {});
    expect(config).toMatchObject({
      GRPC_PORT: 50055,
      GRPC_HOST: '127.0.0.1',
      DATABASE_URL: 'postgresql://rotunda:rotunda@127.0.0.1:54329/rotunda',
      MIGRATE_ON_START: true,
      SEED_DEMO: true,
      LOG_LEVEL: 'info',
      FEEDS: [],
    });
  });

  it('reads booleans, lists and numbers from their text', () => {
    const config = loadConfig(schema, {
      SEED_DEMO: 'False',
      GRPC_PORT: '6000',
      FEEDS: ' https://a.example/rss , ,x ',
    });
    expect(config.SEED_DEMO).toBe(false);
    expect(config.GRPC_PORT).toBe(6000);
    expect(config.FEEDS).toEqual(['https://a.example/rss', 'x']);
  });

  it('names every bad variable with the value it got', () => {
    let error: unknown;
    try {
      loadConfig(schema, {
        GRPC_PORT: '70000',
        SEED_DEMO: 'maybe',
        DATABASE_URL: 'mysql://db/x',
        LOG_LEVEL: 'loud',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain('GRPC_PORT:');
    expect(message).toContain('(got "70000")');
    expect(message).toContain('SEED_DEMO: must be true or false (got "maybe")');
    expect(message).toContain('DATABASE_URL: must be a postgresql:// URL (got "mysql://db/x")');
    expect(message).toContain('LOG_LEVEL:');
  });

  it('accepts the spellings operators use for booleans', () => {
    const flag = z.object({ ON: envBoolean(false) });
    for (const yes of ['true', '1', 'yes', 'TRUE']) expect(loadConfig(flag, { ON: yes }).ON).toBe(true);
    for (const no of ['false', '0', 'no', '']) expect(loadConfig(flag, { ON: no }).ON).toBe(false);
  });
});
