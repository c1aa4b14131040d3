// The Moderation screen (ADR 0041): the open reports, one entry per target with its excerpt, author,
// reasons, count and notes; a decision asks a reason, is sent and the entry shows its new state; suspending the
// author; the closed tab and its empty line; the log, with a running suspension lifted in one click.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { LogEntry, ReportedTarget } from '../src/moderation/api';
import Moderation from '../src/moderation/Moderation';
import { callsTo, json, noContent, refusal, stubApi } from './support/api';
import { signIn } from './support/render';

function reported(overrides: Partial<ReportedTarget> = {}): ReportedTarget {
  return {
    target_type: 'post',
    target_id: 12,
    post_id: 12,
    reports_count: 2,
    reasons: ['spam', 'misinformation'],
    notes: ['Same ad every hour'],
    automatic: false,
    state: 'visible',
    first_reported_at: '2026-01-15T18:30:00.000Z',
    excerpt: 'Cheap pills, no prescription',
    author: { user_id: 'u-9', profile_id: 90, first_name: 'Max', last_name: 'Spammer' },
    ...overrides,
  };
}

const entry = (overrides: Partial<LogEntry> = {}): LogEntry => ({
  id: 1,
  at: '2026-01-16T18:30:00.000Z',
  actor: { user_id: 'u-1', first_name: 'Eva', last_name: 'Tester' },
  action: 'hide',
  target_type: 'post',
  target_id: 12,
  user_id: 'u-9',
  reason: 'Advertising',
  ...overrides,
});

function renderModeration() {
  signIn({ contributor: true });
  return render(
    <MemoryRouter>
      <Moderation />
    </MemoryRouter>,
  );
}

const row = async (excerpt: string) => within(await screen.findByRole('article', { name: excerpt }));

describe('the open reports', () => {
  it('lists each reported target with its author, reasons, count and notes', async () => {
    stubApi({
      'GET /api/reports': () =>
        json([
          reported(),
          reported({
            target_type: 'comment',
            target_id: 70,
            post_id: 12,
            reports_count: 3,
            reasons: ['harassment'],
            notes: [],
            automatic: true,
            state: 'hidden',
            excerpt: 'You are an idiot',
          }),
        ]),
    });
    renderModeration();
    expect(screen.getByRole('heading', { level: 1, name: 'Moderation' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Open' }).getAttribute('aria-selected')).toBe('true');

    const post = await row('Cheap pills, no prescription');
    expect(post.getByRole('link', { name: 'Max Spammer' }).getAttribute('href')).toBe('/profile/90');
    expect(post.getByText('Spam, Misinformation')).toBeTruthy();
    expect(post.getByText('Same ad every hour')).toBeTruthy();
    expect(post.getByText('Visible')).toBeTruthy();
    expect(post.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Dismiss',
      'Hide',
      'Remove',
      'Suspend Max Spammer',
    ]);

    const comment = await row('You are an idiot');
    expect(comment.getByText('Hidden after reports')).toBeTruthy();
    expect(comment.getByText('3')).toBeTruthy();
    expect(comment.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Dismiss',
      'Restore',
      'Remove',
      'Suspend Max Spammer',
    ]);
  });

  it('hides a post with the reason given and shows its new state', async () => {
    const calls = stubApi({
      'GET /api/reports': () => json([reported()]),
      'POST /api/reports/decide': () => json({ state: 'hidden', closed_reports: 2 }),
    });
    renderModeration();
    const entryRow = await row('Cheap pills, no prescription');
    await userEvent.click(entryRow.getByRole('button', { name: 'Hide' }));

    const dialog = within(await screen.findByRole('dialog', { name: 'Hide this post' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Hide post' }));
    expect(dialog.getByRole('alert').textContent).toBe('Give a reason.');
    expect(callsTo(calls, 'POST /api/reports/decide')).toHaveLength(0);

    await userEvent.type(dialog.getByRole('textbox', { name: 'Reason' }), '  Advertising  ');
    await userEvent.click(dialog.getByRole('button', { name: 'Hide post' }));
    expect((await entryRow.findByRole('status')).textContent).toBe('Hidden. 2 reports closed.');
    expect(callsTo(calls, 'POST /api/reports/decide')[0]?.body).toEqual({
      target_type: 'post',
      target_id: 12,
      action: 'hide',
      reason: 'Advertising',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(entryRow.getByText('Hidden')).toBeTruthy();
    expect(entryRow.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Restore',
      'Remove',
      'Suspend Max Spammer',
    ]);
    expect(document.activeElement).toBe(
      entryRow.getByRole('heading', { name: 'Cheap pills, no prescription' }),
    );
  });

  it('suspends the author for the days given, and says a refusal in the dialog', async () => {
    let refuse = true;
    const calls = stubApi({
      'GET /api/reports': () => json([reported()]),
      'POST /api/moderation/suspensions': (call) =>
        refuse
          ? refusal('Days must be between 1 and 365', 400)
          : json({ user_id: 'u-9', until: '2026-01-29T18:30:00.000Z', reason: call.body?.reason }, 201),
    });
    renderModeration();
    const entryRow = await row('Cheap pills, no prescription');
    await userEvent.click(entryRow.getByRole('button', { name: 'Suspend Max Spammer' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Suspend Max Spammer' }));
    const days = dialog.getByRole('spinbutton', { name: 'Days (1–365)' });
    await userEvent.clear(days);
    await userEvent.type(days, '400');
    await userEvent.type(dialog.getByRole('textbox', { name: 'Reason' }), 'Repeated spam');
    await userEvent.click(dialog.getByRole('button', { name: 'Suspend' }));
    expect(dialog.getByRole('alert').textContent).toBe('Suspend for 1 to 365 days.');
    expect(callsTo(calls, 'POST /api/moderation/suspensions')).toHaveLength(0);

    await userEvent.clear(days);
    await userEvent.type(days, '14');
    await userEvent.click(dialog.getByRole('button', { name: 'Suspend' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Days must be between 1 and 365');

    refuse = false;
    await userEvent.click(dialog.getByRole('button', { name: 'Suspend' }));
    expect((await entryRow.findByRole('status')).textContent).toBe('Max Spammer is suspended until 1/29/26.');
    expect(callsTo(calls, 'POST /api/moderation/suspensions').at(-1)?.body).toEqual({
      user_id: 'u-9',
      days: 14,
      reason: 'Repeated spam',
    });
  });

  it('says so when nothing is reported', async () => {
    stubApi({ 'GET /api/reports': () => json([]) });
    renderModeration();
    expect(await screen.findByText('No open reports.')).toBeTruthy();
  });
});

describe('the closed reports', () => {
  it('asks for them by status, with their own empty line', async () => {
    const calls = stubApi({ 'GET /api/reports': () => json([]) });
    renderModeration();
    await screen.findByText('No open reports.');
    await userEvent.click(screen.getByRole('tab', { name: 'Closed' }));
    expect(await screen.findByText('No closed reports.')).toBeTruthy();
    expect(callsTo(calls, 'GET /api/reports').map((call) => call.url.searchParams.get('status'))).toEqual([
      'open',
      'closed',
    ]);
  });
});

describe('the log', () => {
  it('lists every step with who, what, on what and why, and lifts a running suspension', async () => {
    let lifted = false;
    const calls = stubApi({
      'GET /api/reports': () => json([reported()]),
      'GET /api/moderation/log': () =>
        json([
          ...(lifted
            ? [
                entry({
                  id: 3,
                  action: 'lift',
                  target_type: null,
                  target_id: null,
                  reason: 'Lifted',
                  at: '2026-01-17T18:30:00.000Z',
                }),
              ]
            : []),
          entry({ id: 2, action: 'suspend', target_type: null, target_id: null, reason: 'Repeated spam' }),
          entry(),
        ]),
      'DELETE /api/moderation/suspensions/u-9': () => {
        lifted = true;
        return noContent();
      },
    });
    renderModeration();
    await userEvent.click(screen.getByRole('tab', { name: 'Log' }));
    const table = within(await screen.findByRole('table'));
    const rows = table.getAllByRole('row').slice(1);
    expect(
      rows.map((tableRow) =>
        within(tableRow)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['1/16/26', 'Eva Tester', 'Suspended', 'Max SpammerLift', 'Repeated spam'],
      ['1/16/26', 'Eva Tester', 'Hidden', 'Post 12 by Max Spammer', 'Advertising'],
    ]);

    await userEvent.click(table.getByRole('button', { name: 'Lift the suspension of Max Spammer' }));
    expect((await screen.findByRole('status')).textContent).toBe('The suspension is lifted.');
    expect(callsTo(calls, 'DELETE /api/moderation/suspensions/u-9')).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(4));
    expect(screen.queryByRole('button', { name: /Lift/ })).toBeNull();
  });

  it('says so when nothing has been decided', async () => {
    stubApi({ 'GET /api/reports': () => json([]), 'GET /api/moderation/log': () => json([]) });
    renderModeration();
    await userEvent.click(screen.getByRole('tab', { name: 'Log' }));
    expect(await screen.findByText('Nothing has been decided yet.')).toBeTruthy();
  });
});
