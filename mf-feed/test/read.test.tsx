// Comments and the read modal: adding a comment (Enter or send; never an empty one; a refusal such as commenting
// too quickly shown under the line), Keep Reading counting a read, the comments with 'edited', their authors' edit
// (leaving edit mode saves) and delete, the earlier comments fetched a page at a time on request; the post's
// author alone editing (with the event's date and times for events) and deleting the post.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  callsTo,
  comment,
  eventPost,
  json,
  noContent,
  post,
  refusal,
  squareRoutes,
  stubApi,
} from './support/api';
import { findCard, renderSquare, signIn } from './support/render';

const countOf = (card: HTMLElement) => card.querySelector('.post-action--static')?.textContent;

async function openRead(title: string) {
  fireEvent.click(within(await findCard(title)).getByRole('button', { name: 'Keep Reading' }));
  return within(await screen.findByRole('dialog', { name: title }));
}

describe('adding a comment', () => {
  it('sends it on Enter, shows it on the card, counts it and empties the input', async () => {
    signIn();
    const calls = stubApi(
      squareRoutes([post({ post_id: 5, post_title: 'Budget news' })], {
        'POST /api/posts/add-comment': (call) =>
          json(
            comment({
              comment_id: 31,
              post_id: 5,
              comment_body: String(call.body?.comment_body),
              comment_author: 50,
              user_id: 'u-1',
              ProfileInfo: { profile_id: 50, first_name: 'Eva', last_name: 'Tester' },
            }),
            201,
          ),
      }),
    );
    renderSquare();
    const card = await findCard('Budget news');
    const input = await within(card).findByRole('combobox', { name: 'Add comment' });
    await userEvent.type(input, '  Count me in  {Enter}');
    await waitFor(() => expect(within(card).getByText('Count me in')).toBeTruthy());
    expect(callsTo(calls, 'POST /api/posts/add-comment')[0]?.body).toEqual({
      post_id: 5,
      comment_body: 'Count me in',
    });
    expect(countOf(card)).toBe('1 comment');
    expect((input as HTMLInputElement).value).toBe('');
    expect(within(card).getByRole('link', { name: 'Eva Tester' }).getAttribute('href')).toBe('/profile/50');
  });

  it('sends it with the send button too, and never sends an empty one', async () => {
    signIn();
    const calls = stubApi(
      squareRoutes([post({ post_title: 'Budget news' })], {
        'POST /api/posts/add-comment': () => json(comment({ comment_body: 'Yes' }), 201),
      }),
    );
    renderSquare();
    const card = within(await findCard('Budget news'));
    const input = await card.findByRole('combobox', { name: 'Add comment' });
    const send = card.getByRole('button', { name: 'Send comment' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    await userEvent.type(input, '   {Enter}');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(callsTo(calls, 'POST /api/posts/add-comment')).toHaveLength(0);

    await userEvent.type(input, 'Yes');
    expect(send.disabled).toBe(false);
    await userEvent.click(send);
    await waitFor(() => expect(callsTo(calls, 'POST /api/posts/add-comment')).toHaveLength(1));
  });

  it('keeps what was typed when the comment could not be added', async () => {
    signIn();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const calls = stubApi(
      squareRoutes([post({ post_title: 'Budget news' })], {
        'POST /api/posts/add-comment': () => new Response('down', { status: 503 }),
      }),
    );
    renderSquare();
    const article = await findCard('Budget news');
    const input = (await within(article).findByRole('combobox', { name: 'Add comment' })) as HTMLInputElement;
    await userEvent.type(input, 'Important{Enter}');
    // Sent three times with one Idempotency-Key (about 1.5 s apart in all) before the member is told.
    await waitFor(
      () =>
        expect(
          (within(article).getByRole('button', { name: 'Send comment' }) as HTMLButtonElement).disabled,
        ).toBe(false),
      { timeout: 4000 },
    );
    const attempts = callsTo(calls, 'POST /api/posts/add-comment');
    expect(new Set(attempts.map((call) => call.headers.get('idempotency-key'))).size).toBe(1);
    expect(attempts).toHaveLength(3);
    expect(input.value).toBe('Important');
    expect(countOf(article)).toBe('0 comments');
  });
});

describe('a comment refused', () => {
  it('shows why under the line when the member comments too quickly, keeping what was typed', async () => {
    signIn();
    const calls = stubApi(
      squareRoutes([post({ post_title: 'Budget news' })], {
        'POST /api/posts/add-comment': () =>
          refusal('You are commenting too quickly. Please try again in 12 seconds.', 429),
      }),
    );
    renderSquare();
    const article = await findCard('Budget news');
    const input = (await within(article).findByRole('combobox', { name: 'Add comment' })) as HTMLInputElement;
    await userEvent.type(input, 'One more thing{Enter}');
    const alert = await within(article).findByRole('alert');
    expect(alert.textContent).toBe('You are commenting too quickly. Please try again in 12 seconds.');
    expect(input.getAttribute('aria-describedby')).toBe(alert.id);
    expect(input.value).toBe('One more thing');
    expect(countOf(article)).toBe('0 comments');
    expect(callsTo(calls, 'POST /api/posts/add-comment')).toHaveLength(1);
  });
});

describe('the read modal', () => {
  it('counts a read when Keep Reading opens it, and closes with Close', async () => {
    const calls = stubApi(squareRoutes([post({ post_id: 8, post_title: 'Budget news' })]));
    renderSquare();
    const dialog = await openRead('Budget news');
    await waitFor(() => expect(callsTo(calls, 'POST /api/posts/update-read-count')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/posts/update-read-count')[0]?.body).toEqual({ post_id: 8 });
    fireEvent.click(dialog.getAllByRole('button', { name: 'Close' }).at(-1) as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows Location, Date and Time from start to end for events', async () => {
    stubApi(squareRoutes([eventPost({ post_title: 'Workshop', event_date: '2026-03-04' })]));
    renderSquare();
    const dialog = await openRead('Workshop');
    const terms = dialog.getAllByRole('term').map((term) => term.textContent);
    const details = dialog.getAllByRole('definition').map((d) => d.textContent?.replace(/\s+/g, ' '));
    expect(terms).toEqual(['Location', 'Date', 'Time']);
    expect(details).toEqual(['1021 O Street, Sacramento', '3/4/26', '12:00 PM – 1:00 PM']);
  });

  it("marks comments changed after they were written as edited, and offers edit and delete on one's own only", async () => {
    signIn();
    stubApi(
      squareRoutes([
        post({
          post_title: 'Budget news',
          PostComments: [
            comment({ comment_id: 1, comment_body: 'Not mine', user_id: 'u-other' }),
            comment({
              comment_id: 2,
              comment_body: 'Mine',
              user_id: 'u-1',
              updatedAt: '2026-01-15T19:00:00.000Z',
              ProfileInfo: { profile_id: 50, first_name: 'Eva', last_name: 'Tester' },
              comment_author: 50,
            }),
          ],
        }),
      ]),
    );
    renderSquare();
    const dialog = await openRead('Budget news');
    const items = dialog.getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [theirs, mine] = items as [HTMLElement, HTMLElement];
    expect(theirs.textContent).not.toContain('edited');
    expect(mine.textContent).toContain('edited');
    expect(within(theirs).queryByRole('button', { name: 'Edit comment' })).toBeNull();
    expect(within(theirs).queryByRole('button', { name: 'Delete comment' })).toBeNull();
    expect(within(mine).getByRole('button', { name: 'Edit comment' })).toBeTruthy();
    expect(within(mine).getByRole('button', { name: 'Delete comment' })).toBeTruthy();
    expect(within(theirs).getByRole('link', { name: 'Rosa Marquez' }).getAttribute('href')).toBe(
      '/profile/41',
    );
  });

  it('saves an edited comment when leaving edit mode, and shows it as edited', async () => {
    signIn();
    const mine = comment({ comment_id: 2, post_id: 1, comment_body: 'Typo here', user_id: 'u-1' });
    const calls = stubApi(
      squareRoutes([post({ post_title: 'Budget news', PostComments: [mine] })], {
        'POST /api/posts/update-comment': (call) =>
          json({ ...mine, comment_body: call.body?.comment_body, updatedAt: '2026-01-16T09:00:00.000Z' }),
      }),
    );
    renderSquare();
    const dialog = await openRead('Budget news');
    fireEvent.click(dialog.getByRole('button', { name: 'Edit comment' }));
    const box = dialog.getByRole('textbox', { name: 'Edit your comment' });
    expect((box as HTMLTextAreaElement).value).toBe('Typo here');
    fireEvent.change(box, { target: { value: '' } });
    expect((dialog.getByRole('button', { name: 'Save comment' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(box, { target: { value: 'Fixed here' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save comment' }));
    await waitFor(() => expect(dialog.getByText('Fixed here')).toBeTruthy());
    expect(callsTo(calls, 'POST /api/posts/update-comment')[0]?.body).toEqual({
      comment_id: 2,
      comment_body: 'Fixed here',
    });
    expect(dialog.getByRole('button', { name: 'Edit comment' })).toBeTruthy();
    expect(dialog.getByText('· edited', { exact: false })).toBeTruthy();
  });

  it('deletes a comment, which leaves the list and the count', async () => {
    signIn();
    const calls = stubApi(
      squareRoutes(
        [
          post({
            post_title: 'Budget news',
            PostComments: [comment({ comment_id: 2, user_id: 'u-1', comment_body: 'Oops' })],
          }),
        ],
        { 'DELETE /api/posts/delete-comment': () => noContent() },
      ),
    );
    renderSquare();
    const card = await findCard('Budget news');
    expect(countOf(card)).toBe('1 comment');
    const dialog = await openRead('Budget news');
    fireEvent.click(dialog.getByRole('button', { name: 'Delete comment' }));
    await waitFor(() => expect(dialog.queryByText('Oops')).toBeNull());
    expect(callsTo(calls, 'DELETE /api/posts/delete-comment')[0]?.body).toEqual({ comment_id: 2 });
    expect(dialog.getByText('No comments yet.')).toBeTruthy();
    expect(countOf(card)).toBe('0 comments');
  });
});

describe('earlier comments in the read modal', () => {
  /** Comments `from` to `to` of post 1, oldest first. */
  const numbered = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) =>
      comment({ comment_id: from + i, comment_body: `Comment ${from + i}` }),
    );
  const shownBodies = (dialog: ReturnType<typeof within>) =>
    dialog
      .getAllByRole('listitem')
      .map((item: HTMLElement) => item.querySelector('.comment__body')?.textContent);

  /** GET /api/posts/1/comments over comments 1 to `count`, `limit` per page before the cursor. */
  const earlierOf = (count: number, limit: number) => (call: { url: URL }) => {
    const before = Number(call.url.searchParams.get('before') ?? count + 1);
    const older = numbered(1, count).filter((c) => c.comment_id < before);
    return json({ comments: older.slice(-limit), has_earlier: older.length > limit });
  };

  it('shows the latest comments, then the earlier ones a page at a time on request, oldest first', async () => {
    const calls = stubApi(
      squareRoutes([post({ post_title: 'Busy', comments_count: 7, PostComments: numbered(5, 7) })], {
        'GET /api/posts/1/comments': earlierOf(7, 3),
      }),
    );
    renderSquare();
    const card = await findCard('Busy');
    expect(countOf(card)).toBe('7 comments');
    const dialog = await openRead('Busy');
    expect(dialog.getByRole('heading', { name: 'Comments (7)' })).toBeTruthy();
    expect(shownBodies(dialog)).toEqual(['Comment 5', 'Comment 6', 'Comment 7']);

    fireEvent.click(dialog.getByRole('button', { name: 'Show earlier comments' }));
    await waitFor(() => expect(shownBodies(dialog)).toHaveLength(6));
    expect(shownBodies(dialog)).toEqual([
      'Comment 2',
      'Comment 3',
      'Comment 4',
      'Comment 5',
      'Comment 6',
      'Comment 7',
    ]);
    fireEvent.click(dialog.getByRole('button', { name: 'Show earlier comments' }));
    await waitFor(() => expect(shownBodies(dialog)).toHaveLength(7));
    expect(shownBodies(dialog)[0]).toBe('Comment 1');
    // Each page asks for what came before the oldest comment shown; the last one says there is nothing earlier.
    expect(callsTo(calls, 'GET /api/posts/1/comments').map((call) => call.url.search)).toEqual([
      '?before=5',
      '?before=2',
    ]);
    expect(dialog.queryByRole('button', { name: 'Show earlier comments' })).toBeNull();
    expect(document.activeElement?.textContent).toBe('Comments (7)');
    // The card still shows the latest two and the count.
    expect(within(card).queryByText('Comment 5')).toBeNull();
    expect(within(card).getByText('Comment 7')).toBeTruthy();
    expect(countOf(card)).toBe('7 comments');
  });

  it('offers nothing earlier when every comment is shown', async () => {
    const calls = stubApi(squareRoutes([post({ post_title: 'Quiet', PostComments: numbered(1, 2) })]));
    renderSquare();
    const dialog = await openRead('Quiet');
    expect(shownBodies(dialog)).toEqual(['Comment 1', 'Comment 2']);
    expect(dialog.queryByRole('button', { name: 'Show earlier comments' })).toBeNull();
    expect(callsTo(calls, 'GET /api/posts/1/comments')).toHaveLength(0);
  });

  it('says so when they could not be loaded, and loads them on the next try', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    stubApi(
      squareRoutes([post({ post_title: 'Busy', comments_count: 4, PostComments: numbered(2, 4) })], {
        'GET /api/posts/1/comments': (call) =>
          fail ? new Response('down', { status: 503 }) : earlierOf(4, 20)(call),
      }),
    );
    renderSquare();
    const dialog = await openRead('Busy');
    fireEvent.click(dialog.getByRole('button', { name: 'Show earlier comments' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(
      'Earlier comments could not be loaded. Please try again.',
    );
    expect(shownBodies(dialog)).toHaveLength(3);
    fail = false;
    fireEvent.click(dialog.getByRole('button', { name: 'Show earlier comments' }));
    await waitFor(() => expect(shownBodies(dialog)[0]).toBe('Comment 1'));
    expect(dialog.queryByRole('alert')).toBeNull();
  });

  it('keeps the earlier comments shown when the post is saved, and counts a deleted one', async () => {
    signIn();
    const latest = numbered(3, 4);
    const mineEarlier = comment({ comment_id: 2, comment_body: 'Mine, earlier', user_id: 'u-1' });
    stubApi(
      squareRoutes([post({ post_title: 'Mine', user_id: 'u-1', comments_count: 4, PostComments: latest })], {
        'GET /api/posts/1/comments': () =>
          json({ comments: [numbered(1, 1)[0], mineEarlier], has_earlier: false }),
        'POST /api/posts/update-post': (call) =>
          json(
            post({
              user_id: 'u-1',
              post_title: String(call.body?.post_title),
              comments_count: 4,
              PostComments: latest,
            }),
          ),
        'DELETE /api/posts/delete-comment': () => noContent(),
      }),
    );
    renderSquare();
    const dialog = await openRead('Mine');
    fireEvent.click(dialog.getByRole('button', { name: 'Show earlier comments' }));
    await waitFor(() => expect(shownBodies(dialog)).toHaveLength(4));
    fireEvent.click(dialog.getByRole('button', { name: 'Edit post' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Save post' }));
    await waitFor(() => expect(dialog.getByRole('button', { name: 'Edit post' })).toBeTruthy());
    expect(shownBodies(dialog)).toEqual(['Comment 1', 'Mine, earlier', 'Comment 3', 'Comment 4']);
    fireEvent.click(dialog.getByRole('button', { name: 'Delete comment' }));
    await waitFor(() => expect(shownBodies(dialog)).toHaveLength(3));
    expect(dialog.getByRole('heading', { name: 'Comments (3)' })).toBeTruthy();
  });
});

describe("the post's author", () => {
  it('alone sees edit and delete', async () => {
    signIn();
    stubApi(
      squareRoutes([
        post({ post_id: 1, post_title: 'Mine', user_id: 'u-1' }),
        post({ post_id: 2, post_title: 'Theirs', user_id: 'u-other' }),
      ]),
    );
    renderSquare();
    let dialog = await openRead('Mine');
    expect(dialog.getByRole('button', { name: 'Edit post' })).toBeTruthy();
    expect(dialog.getByRole('button', { name: 'Delete post' })).toBeTruthy();
    fireEvent.click(dialog.getAllByRole('button', { name: 'Close' }).at(-1) as HTMLElement);
    dialog = await openRead('Theirs');
    expect(dialog.queryByRole('button', { name: 'Edit post' })).toBeNull();
    expect(dialog.queryByRole('button', { name: 'Delete post' })).toBeNull();
  });

  it('a visitor sees neither', async () => {
    stubApi(squareRoutes([post({ post_title: 'Mine', user_id: 'u-1' })]));
    renderSquare();
    const dialog = await openRead('Mine');
    expect(dialog.queryByRole('button', { name: 'Edit post' })).toBeNull();
    expect(dialog.queryByRole('button', { name: 'Delete post' })).toBeNull();
  });

  it('edits: the pencil becomes save, and leaving edit mode saves the post', async () => {
    signIn();
    const calls = stubApi(
      squareRoutes(
        [post({ post_id: 3, post_title: 'Draft title', user_id: 'u-1', post_body: '<p>Old body</p>' })],
        {
          'POST /api/posts/update-post': (call) =>
            json(
              post({
                post_id: 3,
                user_id: 'u-1',
                post_title: String(call.body?.post_title),
                post_body: String(call.body?.post_body),
              }),
            ),
        },
      ),
    );
    renderSquare();
    const dialog = await openRead('Draft title');
    fireEvent.click(dialog.getByRole('button', { name: 'Edit post' }));
    // The edit form arrives when first used.
    const title = await dialog.findByRole('textbox', { name: 'Post Title' });
    await waitFor(() =>
      expect(dialog.getByRole('textbox', { name: 'Post Body' }).textContent).toBe('Old body'),
    );
    fireEvent.change(title, { target: { value: '' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save post' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(
      'Please provide entries for the following required fields: Post Title',
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(callsTo(calls, 'POST /api/posts/update-post')).toHaveLength(0);

    fireEvent.change(title, { target: { value: 'Final title' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save post' }));
    await waitFor(() => expect(dialog.getByRole('button', { name: 'Edit post' })).toBeTruthy());
    expect(callsTo(calls, 'POST /api/posts/update-post')[0]?.body).toEqual({
      post_id: 3,
      post_title: 'Final title',
      post_body: '<p>Old body</p>',
    });
    expect(await findCard('Final title')).toBeTruthy();
  });

  it('edits an event with its location, date, start and end', async () => {
    signIn();
    const event = eventPost({ post_id: 4, post_title: 'Hearing', user_id: 'u-1' });
    const calls = stubApi(
      squareRoutes([event], { 'POST /api/posts/update-post': (call) => json({ ...event, ...call.body }) }),
    );
    renderSquare();
    const dialog = await openRead('Hearing');
    fireEvent.click(dialog.getByRole('button', { name: 'Edit post' }));
    fireEvent.change(await dialog.findByLabelText(/Event Date/), { target: { value: '2026-04-02' } });
    fireEvent.change(dialog.getByLabelText(/End Time/), { target: { value: '15:30' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save post' }));
    await waitFor(() => expect(callsTo(calls, 'POST /api/posts/update-post')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/posts/update-post')[0]?.body).toEqual({
      post_id: 4,
      post_title: 'Hearing',
      post_body: event.post_body,
      event_location: '1021 O Street, Sacramento',
      event_date: '2026-04-02',
      event_start: '12:00',
      event_end: '15:30',
    });
    await waitFor(() => expect(dialog.getByText('12:00 PM – 3:30 PM', { exact: false })).toBeTruthy());
  });

  it("shows the server's refusal and stays in edit mode", async () => {
    signIn();
    stubApi(
      squareRoutes([post({ post_title: 'Mine', user_id: 'u-1' })], {
        'POST /api/posts/update-post': () => refusal('Only the author can change this post', 403),
      }),
    );
    renderSquare();
    const dialog = await openRead('Mine');
    fireEvent.click(dialog.getByRole('button', { name: 'Edit post' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Save post' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Only the author can change this post');
    expect(dialog.getByRole('button', { name: 'Save post' })).toBeTruthy();
  });

  it('deletes after a confirmation: the modal closes and the card leaves the feed', async () => {
    signIn();
    const calls = stubApi(
      squareRoutes(
        [post({ post_id: 6, post_title: 'Mine', user_id: 'u-1' }), post({ post_id: 7, post_title: 'Stays' })],
        {
          'DELETE /api/posts/delete-post': () => noContent(),
        },
      ),
    );
    renderSquare();
    const dialog = await openRead('Mine');
    fireEvent.click(dialog.getByRole('button', { name: 'Delete post' }));
    expect(callsTo(calls, 'DELETE /api/posts/delete-post')).toHaveLength(0);
    expect(document.activeElement?.textContent).toBe('Keep it');
    fireEvent.click(dialog.getByRole('button', { name: /Delete post$/, description: /cannot be undone/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'DELETE /api/posts/delete-post')[0]?.body).toEqual({ post_id: 6 });
    expect(screen.queryByRole('article', { name: 'Mine' })).toBeNull();
    expect(screen.getByRole('article', { name: 'Stays' })).toBeTruthy();
  });
});
