// Change notifications on a real PostgreSQL: a committed announcement is heard with its fields, a rolled-back
// one never is, catching up runs before anything heard on a connection, and a dropped connection comes back
// and catches up again.
import { createLogger } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Change,
  type ChangeListener,
  changeStatement,
  listenForChanges,
  type OrganizationChanged,
  parseChange,
} from '../src/index.ts';

const logger = createLogger('events-test', 'silent');
let databaseUrl: string;
let writer: pg.Client;
const listeners: ChangeListener[] = [];

const renamed = (organization_name: string): OrganizationChanged => ({
  kind: 'organization',
  organization_id: 7,
  organization_name,
  group_type: 'Unions',
  logo: null,
});

async function announce(change: Change, commit = true) {
  const { text, values } = changeStatement(change);
  await writer.query('BEGIN');
  await writer.query(text, values);
  await writer.query(commit ? 'COMMIT' : 'ROLLBACK');
}

function listen(events: string[], heard: Change[] = []) {
  const listener = listenForChanges({
    databaseUrl,
    logger,
    retryMs: 50,
    onConnected: () => void events.push('caught up'),
    onChange: (change) => {
      heard.push(change);
      events.push(`heard ${change.kind}`);
    },
  });
  listeners.push(listener);
  return listener;
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  writer = new pg.Client({ connectionString: databaseUrl });
  await writer.connect();
});

afterAll(async () => {
  await Promise.all(listeners.map((listener) => listener.close()));
  await writer?.end();
});

describe('change notifications', () => {
  it('delivers a committed change with its fields, after catching up', async () => {
    const events: string[] = [];
    const heard: Change[] = [];
    const listener = listen(events, heard);
    await listener.ready;
    await announce(renamed('Capitol Nurses Union'));
    await expect.poll(() => heard).toEqual([renamed('Capitol Nurses Union')]);
    expect(events).toEqual(['caught up', 'heard organization']);
  });

  it('never delivers a change whose transaction rolled back', async () => {
    const heard: Change[] = [];
    const listener = listen([], heard);
    await listener.ready;
    await announce(renamed('Rolled Back Name'), false);
    await announce(renamed('Committed Name'));
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toMatchObject({ organization_name: 'Committed Name' });
  });

  it('reconnects after the connection drops and catches up again before new changes', async () => {
    const events: string[] = [];
    const listener = listen(events);
    await listener.ready;
    await writer.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE query = 'LISTEN rotunda_changes' AND pid <> pg_backend_pid()`,
    );
    await expect.poll(() => events.filter((e) => e === 'caught up').length, { timeout: 5000 }).toBe(2);
    await announce(renamed('After Reconnect'));
    await expect.poll(() => events.at(-1)).toBe('heard organization');
  });

  it('ignores payloads that are not changes it knows', () => {
    expect(parseChange('not json')).toBeUndefined();
    expect(parseChange('{"kind":"unknown"}')).toBeUndefined();
    expect(parseChange(undefined)).toBeUndefined();
    expect(parseChange(JSON.stringify(renamed('X')))).toEqual(renamed('X'));
  });

  it('reads a profile’s issue areas, and an older announcement without them (or with a list it cannot read) as absent', () => {
    const profile = {
      kind: 'profile',
      profile_id: 5,
      user_id: 'member-5',
      first_name: 'Ana',
      last_name: 'Ruiz',
      profile_picture: null,
    } as const;
    expect(parseChange(JSON.stringify({ ...profile, issue_area_ids: [2, 7] }))).toEqual({
      ...profile,
      issue_area_ids: [2, 7],
    });
    expect(parseChange(JSON.stringify({ ...profile, issue_area_ids: [] }))).toEqual({
      ...profile,
      issue_area_ids: [],
    });
    expect(parseChange(JSON.stringify(profile))).toEqual(profile);
    expect(parseChange(JSON.stringify({ ...profile, issue_area_ids: ['2'] }))).toEqual(profile);
  });
});
