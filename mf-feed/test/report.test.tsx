// Reporting and hidden posts (ADR 0041): members other than the author report a post from its card, the read
// dialog or a comment (a reason, an optional note of at most 500 characters), are thanked and see it marked
// "Reported"; visitors and authors see no Report; a refusal is said in the dialog; the author of a hidden post or
// comment reads why it is hidden.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { callsTo, comment, json, post, refusal, squareRoutes, stubApi } from './support/api';
import { findCard, renderSquare, signIn } from './support/render';

/** What a member's square asks besides the feed: whether their profile covers an issue area, and the report. */
const reportRoute = () => ({
  'POST /api/posts/profile-info': () => json({ has_issue_areas: false }),
  'POST /api/reports': () => json({ report_id: 9 }, 201),
});

describe('reporting a post', () => {
  it('sends the reason and note, thanks the member and marks the post reported', async () => {
    signIn();
    const calls = stubApi(squareRoutes([post({ post_id: 31, post_title: 'Cheap pills' })], reportRoute()));
    renderSquare();
    const card = within(await findCard('Cheap pills'));
    const trigger = card.getByRole('button', { name: 'Report post' });
    await userEvent.click(trigger);

    const dialog = within(await screen.findByRole('dialog', { name: 'Report this post' }));
    expect(document.activeElement).toBe(dialog.getByRole('radio', { name: 'Spam' }));
    await userEvent.click(dialog.getByRole('radio', { name: 'Spam' }));
    await userEvent.type(dialog.getByRole('textbox', { name: 'Note (optional)' }), '  Same ad every hour  ');
    await userEvent.click(dialog.getByRole('button', { name: 'Send report' }));

    expect((await dialog.findByRole('status')).textContent).toBe('Thanks — a contributor will review it.');
    // The Done button, which takes the focus, says where the outcome will show.
    expect(document.activeElement).toBe(
      dialog.getByRole('button', {
        name: 'Done',
        description: 'What they decide will show under “Your reports” on the Public Square.',
      }),
    );
    expect(callsTo(calls, 'POST /api/reports')[0]?.body).toEqual({
      target_type: 'post',
      target_id: 31,
      reason: 'spam',
      note: 'Same ad every hour',
    });
    await userEvent.click(dialog.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(trigger.getAttribute('aria-label')).toBe('Reported post');
    expect(trigger.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(trigger);
  });

  it('asks for a reason before sending, counts the note down and sends no empty note', async () => {
    signIn();
    const calls = stubApi(squareRoutes([post({ post_id: 32, post_title: 'Rally' })], reportRoute()));
    renderSquare();
    await userEvent.click(within(await findCard('Rally')).getByRole('button', { name: 'Report post' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Report this post' }));
    expect(dialog.getByText('500 characters left')).toBeTruthy();
    await userEvent.type(dialog.getByRole('textbox', { name: 'Note (optional)' }), 'abc');
    expect(dialog.getByText('497 characters left')).toBeTruthy();
    await userEvent.clear(dialog.getByRole('textbox', { name: 'Note (optional)' }));

    await userEvent.click(dialog.getByRole('button', { name: 'Send report' }));
    expect(dialog.getByRole('alert').textContent).toBe('Choose a reason for the report.');
    expect(callsTo(calls, 'POST /api/reports')).toHaveLength(0);

    await userEvent.click(dialog.getByRole('radio', { name: 'Personal information' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Send report' }));
    await waitFor(() =>
      expect(callsTo(calls, 'POST /api/reports')[0]?.body).toEqual({
        target_type: 'post',
        target_id: 32,
        reason: 'personal_information',
      }),
    );
  });

  it("shows the server's refusal, such as a suspension, and keeps the form", async () => {
    signIn();
    stubApi(
      squareRoutes([post({ post_id: 33, post_title: 'Budget' })], {
        ...reportRoute(),
        'POST /api/reports': () => refusal('Your account is suspended until March 3, 2026: Spam', 403),
      }),
    );
    renderSquare();
    await userEvent.click(within(await findCard('Budget')).getByRole('button', { name: 'Report post' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Report this post' }));
    await userEvent.click(dialog.getByRole('radio', { name: 'Other' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Send report' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(
      'Your account is suspended until March 3, 2026: Spam',
    );
    expect(dialog.getByRole('button', { name: 'Send report' })).toBeTruthy();
  });

  it('is not offered to visitors nor on one’s own post', async () => {
    stubApi(squareRoutes([post({ post_title: 'Open to all' })]));
    const { unmount } = renderSquare();
    expect(within(await findCard('Open to all')).queryByRole('button', { name: /Report/ })).toBeNull();
    unmount();

    signIn();
    stubApi(squareRoutes([post({ post_title: 'Mine', user_id: 'u-1' })], reportRoute()));
    renderSquare();
    expect(within(await findCard('Mine')).queryByRole('button', { name: /Report/ })).toBeNull();
  });
});

describe('reporting from the read dialog', () => {
  it('reports a comment and leaves the read dialog open', async () => {
    signIn();
    const calls = stubApi(
      squareRoutes(
        [
          post({
            post_id: 34,
            post_title: 'Hearing',
            PostComments: [comment({ comment_id: 71, post_id: 34 })],
          }),
        ],
        reportRoute(),
      ),
    );
    renderSquare();
    fireEvent.click(within(await findCard('Hearing')).getByRole('button', { name: 'Keep Reading' }));
    const read = within(await screen.findByRole('dialog', { name: 'Hearing' }));
    expect(read.getByRole('button', { name: 'Report post' })).toBeTruthy();
    await userEvent.click(read.getByRole('button', { name: 'Report comment' }));

    const dialog = within(await screen.findByRole('dialog', { name: 'Report this comment' }));
    await userEvent.click(dialog.getByRole('radio', { name: 'Harassment' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Send report' }));
    await dialog.findByRole('status');
    expect(callsTo(calls, 'POST /api/reports')[0]?.body).toEqual({
      target_type: 'comment',
      target_id: 71,
      reason: 'harassment',
    });
    await userEvent.click(dialog.getByRole('button', { name: 'Done' }));
    expect(screen.getByRole('dialog', { name: 'Hearing' })).toBeTruthy();
    expect(read.getByRole('button', { name: 'Reported comment' })).toBeTruthy();
  });
});

describe('a hidden post or comment', () => {
  it("shows its author the contributor's reason, or that reports hid it", async () => {
    signIn();
    stubApi(
      squareRoutes(
        [
          post({
            post_id: 40,
            post_title: 'My offer',
            user_id: 'u-1',
            moderation: { state: 'hidden', reason: 'Advertising is not allowed', automatic: false },
          }),
          post({
            post_id: 41,
            post_title: 'My rant',
            user_id: 'u-1',
            moderation: {
              state: 'hidden',
              reason: 'Hidden after reports from several members, until a contributor reviews it.',
              automatic: true,
            },
            PostComments: [
              comment({
                comment_id: 80,
                post_id: 41,
                user_id: 'u-1',
                moderation: { state: 'hidden', reason: 'Off topic', automatic: false },
              }),
            ],
          }),
          post({ post_id: 42, post_title: 'Fine post' }),
        ],
        reportRoute(),
      ),
    );
    renderSquare();
    expect(
      within(await findCard('My offer')).getByText('Hidden by a contributor: Advertising is not allowed'),
    ).toBeTruthy();
    expect(
      within(await findCard('My rant')).getByText(
        'Hidden after reports from several members, until a contributor reviews it.',
      ),
    ).toBeTruthy();
    expect(within(await findCard('Fine post')).queryByText(/Hidden/)).toBeNull();

    fireEvent.click(within(await findCard('My rant')).getByRole('button', { name: 'Keep Reading' }));
    const read = within(await screen.findByRole('dialog', { name: 'My rant' }));
    expect(read.getByText('Hidden by a contributor: Off topic')).toBeTruthy();
  });
});
