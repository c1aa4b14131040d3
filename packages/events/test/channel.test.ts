// The channel listener on a real PostgreSQL: it hears its own channel's payloads in order, runs its catch-up on
// every connection and tries again on a new one when the catch-up fails, listens again after the server cuts its
// connection, and once closed stays closed.
import { createLogger } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChannelListener, type ChannelListenerOptions, listenToChannel } from '../src/index.ts';

const logger = createLogger('events-test', 'silent');
let databaseUrl: string;
let writer: pg.Client;
const listeners: ChannelListener[] = [];

function listen(options: Partial<ChannelListenerOptions> & Pick<ChannelListenerOptions, 'channel'>) {
  const heard: string[] = [];
  const listener = listenToChannel({
    databaseUrl,
    logger,
    name: 'test',
    retryMs: 50,
    onNotification: (payload) => void heard.push(payload),
    ...options,
  });
  listeners.push(listener);
  return { listener, heard };
}

const notify = (channel: string, payload: string) =>
  writer.query('SELECT pg_notify($1, $2)', [channel, payload]);

/** Connections named `name` open right now. */
const listening = async (name: string) =>
  (await writer.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [name])).rowCount ?? 0;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  writer = new pg.Client({ connectionString: databaseUrl });
  await writer.connect();
});

afterAll(async () => {
  await Promise.all(listeners.map((listener) => listener.close()));
  await writer?.end();
});

describe('listenToChannel', () => {
  it("hears its own channel's payloads, in the order they were sent", async () => {
    const { listener, heard } = listen({ channel: 'test_one' });
    await listener.ready;
    await notify('test_other', 'not mine');
    for (const payload of ['a', 'b', 'c']) await notify('test_one', payload);
    await expect.poll(() => heard).toEqual(['a', 'b', 'c']);
  });

  it('is ready only once its catch-up succeeded, trying again on a new connection until it does', async () => {
    let tries = 0;
    const { listener } = listen({
      channel: 'test_two',
      onListening: async () => {
        tries += 1;
        if (tries < 3) throw new Error('owner not up yet');
      },
    });
    await listener.ready;
    expect(tries).toBe(3);
  });

  it('listens again, catching up first, after the server cuts its connection', async () => {
    let catchUps = 0;
    const { listener, heard } = listen({
      channel: 'test_three',
      applicationName: 'test.three',
      onListening: async () => {
        catchUps += 1;
      },
    });
    await listener.ready;
    await writer.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'test.three'",
    );
    await expect.poll(() => catchUps, { timeout: 5000 }).toBe(2);
    await notify('test_three', 'after');
    await expect.poll(() => heard).toEqual(['after']);
  });

  it('stays closed once closed: no connection comes back', async () => {
    const { listener } = listen({ channel: 'test_four', applicationName: 'test.four' });
    await listener.ready;
    expect(await listening('test.four')).toBe(1);
    await listener.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await listening('test.four')).toBe(0);
  });

  it('refuses a channel name that is not one', () => {
    expect(() => listen({ channel: 'x; DROP TABLE y' })).toThrow(/Not a channel name/);
  });
});
