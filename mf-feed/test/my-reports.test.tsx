// "Your reports" (ADR 0041): a signed-in member opens, from the public square, the list of what they reported
// and what became of each (waiting, or reviewed: no action taken, left up, hidden, removed), with the reason,
// the dates and their note; a removed post's text is never shown; the list is asked afresh at each opening,
// says when there is nothing or when it could not be loaded (with a retry), and the focus starts above the
// list and goes back to the entry.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { MyReport } from '../src/api';
import { callsTo, json, post, refusal, squareRoutes, stubApi } from './support/api';
import { findCard, renderSquare, signIn } from './support/render';

function report(overrides: Partial<MyReport>): MyReport {
  return {
    report_id: 1,
    target_type: 'post',
    target_id: 31,
    post_id: 31,
    reason: 'spam',
    note: '',
    created_at: '2026-11-22T18:00:00.000Z',
    status: 'open',
    outcome: '',
    decided_at: null,
    excerpt: 'Cheap pills',
    ...overrides,
  };
}

const decided = { status: 'closed', decided_at: '2026-11-24T18:00:00.000Z' } as const;

const MINE: MyReport[] = [
  report({ report_id: 6, excerpt: 'Transit update', reason: 'other', note: 'Wrong route numbers' }),
  report({
    report_id: 5,
    target_type: 'comment',
    target_id: 71,
    post_id: 30,
    reason: 'personal_information',
    excerpt: 'Call me at 555-0100',
    outcome: 'hide',
    ...decided,
  }),
  report({
    report_id: 4,
    excerpt: 'Budget hearing',
    reason: 'misinformation',
    outcome: 'dismiss',
    ...decided,
  }),
  report({ report_id: 3, excerpt: 'Water plan', reason: 'harassment', outcome: 'restore', ...decided }),
  report({ report_id: 2, excerpt: '', outcome: 'remove', ...decided }),
];

const memberRoutes = (mine: () => Response) => ({
  'POST /api/posts/profile-info': () => json({ has_issue_areas: false }),
  'GET /api/reports/mine': mine,
});

async function openYourReports() {
  const entry = await screen.findByRole('button', { name: 'Your reports' });
  await userEvent.click(entry);
  return { entry, dialog: within(await screen.findByRole('dialog', { name: 'Your reports' })) };
}

/** The open dialog's reports, each an article in a list item. */
const entries = (): HTMLElement[] =>
  within(screen.getByRole('dialog', { name: 'Your reports' }))
    .getAllByRole('listitem')
    .map((item) => within(item).getByRole('article'));

describe('your reports', () => {
  it('lists each report with what it was about, the reason, when, and the outcome in words', async () => {
    signIn();
    const calls = stubApi(
      squareRoutes(
        [post({ post_title: 'Open to all' })],
        memberRoutes(() => json(MINE)),
      ),
    );
    renderSquare();
    const { entry, dialog } = await openYourReports();
    const summary = dialog.getByRole('status');
    expect(document.activeElement).toBe(summary);

    await waitFor(() =>
      expect(summary.textContent).toBe('5 reports: 1 waiting for a contributor, 4 reviewed.'),
    );
    expect(dialog.getByRole('list')).toBeTruthy();
    const articles = entries();
    expect(articles).toHaveLength(5);
    expect(dialog.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'Transit update',
      'Call me at 555-0100',
      'Budget hearing',
      'Water plan',
      'This post was removed',
    ]);
    const outcomes = articles.map((article) =>
      within(article).getByText(/^(Waiting for a contributor|Reviewed: .*)$/),
    );
    expect(outcomes.map((outcome) => outcome.textContent)).toEqual([
      'Waiting for a contributor',
      'Reviewed: hidden',
      'Reviewed: no action taken',
      'Reviewed: left up',
      'Reviewed: removed',
    ]);

    const [open, comment] = articles as [HTMLElement, HTMLElement];
    expect(dialog.getByRole('article', { name: 'Transit update' })).toBe(open);
    expect(within(open).getByText('Post')).toBeTruthy();
    expect(within(open).getByText('Other')).toBeTruthy();
    expect(within(open).getByText('11/22/26').getAttribute('datetime')).toBe('2026-11-22T18:00:00.000Z');
    expect(within(open).getByText('Wrong route numbers')).toBeTruthy();
    expect(within(open).queryByText('Reviewed')).toBeNull();
    expect(within(comment).getByText('Comment')).toBeTruthy();
    expect(within(comment).getByText('Personal information')).toBeTruthy();
    expect(within(comment).getByText('11/24/26').getAttribute('datetime')).toBe('2026-11-24T18:00:00.000Z');
    expect(callsTo(calls, 'GET /api/reports/mine')).toHaveLength(1);

    await userEvent.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(entry);

    // Asked afresh at the next opening: a contributor may have decided meanwhile.
    await userEvent.click(entry);
    await waitFor(() => expect(callsTo(calls, 'GET /api/reports/mine')).toHaveLength(2));
  });

  it('says when there is nothing yet', async () => {
    signIn();
    stubApi(
      squareRoutes(
        [post({ post_title: 'Open to all' })],
        memberRoutes(() => json([])),
      ),
    );
    renderSquare();
    const { dialog } = await openYourReports();
    await waitFor(() =>
      expect(dialog.getByRole('status').textContent).toBe(
        'You have not reported anything. Use Report on a post or comment to tell the contributors about it.',
      ),
    );
    expect(dialog.queryByRole('list')).toBeNull();
  });

  it('says when the list could not be loaded, and tries again', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    signIn();
    let answers = 0;
    stubApi(
      squareRoutes(
        [post({ post_title: 'Open to all' })],
        memberRoutes(() => (answers++ === 0 ? refusal('Down', 503) : json([MINE[0] as MyReport]))),
      ),
    );
    renderSquare();
    const { dialog } = await openYourReports();
    expect((await dialog.findByRole('alert')).textContent).toContain(
      'Your reports could not be loaded. Please try again.',
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(dialog.getByRole('status').textContent).toBe(
        '1 report: 1 waiting for a contributor, 0 reviewed.',
      ),
    );
    expect(dialog.queryByRole('alert')).toBeNull();
    expect(dialog.getByRole('heading', { name: 'Transit update' })).toBeTruthy();
    expect(logged).toHaveBeenCalledWith('Your reports could not be loaded', expect.anything());
  });

  it('is not offered to visitors', async () => {
    const calls = stubApi(squareRoutes([post({ post_title: 'Open to all' })]));
    renderSquare();
    await findCard('Open to all');
    expect(screen.queryByRole('button', { name: 'Your reports' })).toBeNull();
    expect(callsTo(calls, 'GET /api/reports/mine')).toHaveLength(0);
  });
});
