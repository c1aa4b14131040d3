// Recorded events on a real PostgreSQL (ADR 0042): what a rolled-back write recorded never arrives, a consumer
// that was down catches up in order, a transaction that commits late is not skipped, two replicas of a consumer
// never both handle an event, a failed event comes again, a dropped connection comes back, and the outbox is kept:
// old events pruned at start and on each round until stopped.
import { createLogger, eventsHandled, eventsLag } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consumeEvents,
  type DomainEvent,
  type EventConsumer,
  type EventConsumerOptions,
  ensureEventTables,
  keepOutbox,
  type RawExecutor,
  type RecordedEvent,
  recordEvent,
} from '../src/index.ts';

const logger = createLogger('events-test', 'silent');
let databaseUrl: string;
const clients: pg.Client[] = [];
const consumers: EventConsumer[] = [];

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  clients.push(client);
  return client;
}

const executor = (client: pg.Client): RawExecutor => ({
  $executeRawUnsafe: (query, ...values) => client.query(query, values).then((result) => result.rowCount ?? 0),
});

const deleted = (user_id: string): DomainEvent => ({ topic: 'account.deleted', user_id });

/** Records `events` in one transaction on `client`, committed or rolled back. */
async function record(client: pg.Client, schema: string, events: DomainEvent[], commit = true) {
  await client.query('BEGIN');
  for (const event of events) await recordEvent(executor(client), schema, event);
  await client.query(commit ? 'COMMIT' : 'ROLLBACK');
}

function consume(options: Partial<EventConsumerOptions> & Pick<EventConsumerOptions, 'schema' | 'sources'>) {
  const heard: RecordedEvent[] = [];
  const consumer = consumeEvents({
    databaseUrl,
    logger,
    pollMs: 100_000,
    onEvent: async (event) => void heard.push(event),
    ...options,
  });
  consumers.push(consumer);
  return { consumer, heard };
}

const users = (events: RecordedEvent[]) => events.map((event) => (event as { user_id?: string }).user_id);

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
});

afterAll(async () => {
  await Promise.all(consumers.map((consumer) => consumer.close()));
  await Promise.all(clients.map((client) => client.end()));
});

describe('recorded events', () => {
  it('delivers a committed event with its fields, soon, and never one whose transaction rolled back', async () => {
    await ensureEventTables(databaseUrl, 'one_events');
    const writer = await connect();
    const { consumer, heard } = consume({ schema: 'reader_one_events', sources: ['one_events'] });
    await consumer.ready;
    await record(writer, 'one_events', [deleted('rolled-back')], false);
    const liked: DomainEvent = {
      topic: 'post.liked',
      post_id: 4,
      post_title: 'Budget hearing',
      recipient_user_id: 'author',
      actor: { user_id: 'dana', profile_id: 9, first_name: 'Dana', last_name: 'Lee' },
    };
    await record(writer, 'one_events', [liked]);
    // Woken by the commit, not the (long) poll.
    await expect.poll(() => heard.length, { timeout: 1500 }).toBe(1);
    expect(heard[0]).toMatchObject(liked);
    expect(heard[0]?.event_id).toMatch(/^one_events:\d+$/);
    expect(Date.parse(heard[0]?.recorded_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    await consumer.drain();
    expect(heard.map((event) => event.topic)).toEqual(['post.liked']);
  });

  it('hands more events than one batch holds each once, in the order recorded (ids past 9, 99, 999)', async () => {
    await ensureEventTables(databaseUrl, 'many_events');
    const writer = await connect();
    const recorded = Array.from({ length: 450 }, (_, i) => `m${i}`);
    await record(writer, 'many_events', recorded.map(deleted));
    const { consumer, heard } = consume({ schema: 'reader_many_events', sources: ['many_events'] });
    await consumer.drain();
    expect(users(heard)).toEqual(recorded);
  });

  it('gives a consumer that was not running everything recorded meanwhile, in order, from every source', async () => {
    await ensureEventTables(databaseUrl, 'two_a_events');
    await ensureEventTables(databaseUrl, 'two_b_events');
    const writer = await connect();
    await record(writer, 'two_a_events', [deleted('a1'), deleted('a2')]);
    await record(writer, 'two_b_events', [deleted('b1')]);
    await record(writer, 'two_a_events', [deleted('a3')]);
    const { consumer, heard } = consume({
      schema: 'reader_two_events',
      sources: ['two_a_events', 'two_b_events'],
    });
    await consumer.drain();
    expect(users(heard)).toEqual(['a1', 'a2', 'a3', 'b1']);
    // Its cursor holds: started again, it hears only what is new.
    await consumer.close();
    await record(writer, 'two_b_events', [deleted('b2')]);
    const again = consume({ schema: 'reader_two_events', sources: ['two_a_events', 'two_b_events'] });
    await again.consumer.drain();
    expect(users(again.heard)).toEqual(['b2']);
  });

  it('does not skip a transaction that began earlier but commits after a later one', async () => {
    await ensureEventTables(databaseUrl, 'three_events');
    const early = await connect();
    const late = await connect();
    const { consumer, heard } = consume({ schema: 'reader_three_events', sources: ['three_events'] });
    await consumer.ready;
    await early.query('BEGIN');
    await recordEvent(executor(early), 'three_events', deleted('early'));
    await record(late, 'three_events', [deleted('late')]);
    // The later commit waits for the earlier transaction: delivering it now would move the cursor past it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(heard).toEqual([]);
    await early.query('COMMIT');
    await expect.poll(() => users(heard), { timeout: 1500 }).toEqual(['early', 'late']);
  });

  it('never lets two replicas of a consumer handle the same event', async () => {
    await ensureEventTables(databaseUrl, 'four_events');
    const writer = await connect();
    for (let batch = 0; batch < 5; batch++)
      await record(
        writer,
        'four_events',
        Array.from({ length: 50 }, (_, i) => deleted(`u${batch * 50 + i}`)),
      );
    const handled: string[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const onEvent = async (event: RecordedEvent) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      handled.push(event.event_id);
      inFlight--;
    };
    const replicas = [1, 2].map(() =>
      consume({ schema: 'reader_four_events', sources: ['four_events'], onEvent, pollMs: 50 }),
    );
    await Promise.all(replicas.map(({ consumer }) => consumer.drain()));
    expect(handled).toHaveLength(250);
    expect(new Set(handled).size).toBe(250);
    expect(mostInFlight).toBe(1);
  });

  it('gives an event whose handler threw again, and nothing after it first', async () => {
    await ensureEventTables(databaseUrl, 'five_events');
    const writer = await connect();
    await record(writer, 'five_events', [deleted('first'), deleted('flaky'), deleted('last')]);
    const attempts: string[] = [];
    let failures = 0;
    const { consumer } = consume({
      schema: 'reader_five_events',
      sources: ['five_events'],
      onEvent: async (event) => {
        const user = (event as { user_id: string }).user_id;
        attempts.push(user);
        if (user === 'flaky' && failures++ === 0) throw new Error('mail server down');
      },
    });
    await consumer.drain();
    expect(attempts).toEqual(['first', 'flaky', 'flaky', 'last']);
    // What operators see: three handled, one failure, and nothing left waiting.
    const counted = async (outcome: string) =>
      (await eventsHandled.get()).values.find(
        (value) => value.labels.consumer === 'reader_five_events' && value.labels.outcome === outcome,
      )?.value;
    expect(await counted('handled')).toBe(3);
    expect(await counted('failed')).toBe(1);
    const lag = (await eventsLag.get()).values.find(
      (value) => value.labels.consumer === 'reader_five_events',
    );
    expect(lag?.value).toBe(0);
  });

  it('listens again after its connection drops and reads what was recorded meanwhile', async () => {
    await ensureEventTables(databaseUrl, 'eight_events');
    const writer = await connect();
    const { consumer, heard } = consume({ schema: 'reader_eight_events', sources: ['eight_events'] });
    await consumer.ready;
    await writer.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE query = 'LISTEN rotunda_events' AND pid <> pg_backend_pid()`,
    );
    await record(writer, 'eight_events', [deleted('while-away')]);
    // The poll is 100 s away: only listening again brings it.
    await expect.poll(() => users(heard), { timeout: 5000 }).toEqual(['while-away']);
    await record(writer, 'eight_events', [deleted('after')]);
    await expect.poll(() => users(heard), { timeout: 1500 }).toEqual(['while-away', 'after']);
  });

  it('keeps the outbox: makes it, prunes past the retention now and on each round, until stopped', async () => {
    const stop = await keepOutbox({ databaseUrl, schema: 'six_events', logger, everyMs: 200 });
    const writer = await connect();
    const age = (user: string, days: number) =>
      writer.query(
        `UPDATE six_events.outbox SET recorded_at = now() - make_interval(days => $2) WHERE payload->>'user_id' = $1`,
        [user, days],
      );
    const left = async () =>
      (
        await writer.query("SELECT payload->>'user_id' AS user_id FROM six_events.outbox ORDER BY id")
      ).rows.map((row) => row.user_id);
    await record(writer, 'six_events', [deleted('old'), deleted('recent')]);
    await age('old', 15);
    await age('recent', 13);
    // The next round prunes what is past 14 days and keeps the rest.
    await expect.poll(left, { timeout: 3000 }).toEqual(['recent']);
    stop();
    await age('recent', 15);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await left()).toEqual(['recent']);
  });

  it('prunes at once when it starts, and logs a prune that fails instead of failing', async () => {
    await ensureEventTables(databaseUrl, 'nine_events');
    const writer = await connect();
    await record(writer, 'nine_events', [deleted('old')]);
    await writer.query("UPDATE nine_events.outbox SET recorded_at = now() - interval '15 days'");
    const stop = await keepOutbox({ databaseUrl, schema: 'nine_events', logger, everyMs: 100 });
    expect((await writer.query('SELECT 1 FROM nine_events.outbox')).rowCount).toBe(0);
    const warned: string[] = [];
    const watched = createLogger('events-test', 'warn', { write: (line: string) => void warned.push(line) });
    const stopWatched = await keepOutbox({
      databaseUrl,
      schema: 'nine_events',
      logger: watched,
      everyMs: 100,
    });
    await writer.query('DROP TABLE nine_events.outbox');
    await expect.poll(() => warned.join(''), { timeout: 3000 }).toContain('pruning the events outbox failed');
    stop();
    stopWatched();
  });

  it('makes its tables once, however often it is asked, and refuses a name that is not a schema', async () => {
    await ensureEventTables(databaseUrl, 'seven_events');
    await Promise.all([1, 2, 3].map(() => ensureEventTables(databaseUrl, 'seven_events')));
    await expect(ensureEventTables(databaseUrl, 'x"; DROP SCHEMA public; --')).rejects.toThrow(
      /Not an events schema/,
    );
  });
});
