// Mentions: "@" and letters in a comment or a new post's body offer people from the directory (an ARIA combobox
// with a listbox, driven by the keyboard or a pointer); the chosen names still in the text are sent as
// `mentions`, never more than 10; and posts' and comments' mentions show as links to the people's profiles,
// while text that merely looks like a mention stays text.
import { MENTIONS_MAX, TOO_MANY_MENTIONS } from '@rotunda/rules';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PersonMatch } from '../src/api';
import { callsTo, comment, type Handler, json, post, squareRoutes, stubApi } from './support/api';
import { findCard, readModal, renderSquare, signIn } from './support/render';

// Quill scrolls the caret into view after an insertion; jsdom measures no text ranges.
beforeAll(() => {
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});

const person = (profile_id: number, first_name: string, last_name: string): PersonMatch => ({
  profile_id,
  first_name,
  last_name,
  title: 'Policy Analyst',
  organization_name: 'Department of Water Stewardship',
});

const DIRECTORY = [
  person(77, 'Dana', 'Smith'),
  person(78, 'Daniel', 'Ortiz'),
  ...Array.from({ length: 12 }, (_, i) => person(100 + i, 'Zed', `Member${String.fromCharCode(65 + i)}`)),
];

/** GET /api/profiles/search over DIRECTORY: every word must start a first or last name. */
const directorySearch: Handler = (call) => {
  const words = (call.url.searchParams.get('search') ?? '').toLowerCase().split(' ');
  const limit = Number(call.url.searchParams.get('limit') ?? 30);
  const found = DIRECTORY.filter((p) =>
    words.every((word) => [p.first_name, p.last_name].some((name) => name.toLowerCase().startsWith(word))),
  );
  return json({ profiles: found.slice(0, limit), total: found.length, total_is_lower_bound: false });
};

function commentRoutes(more: Record<string, Handler> = {}) {
  return squareRoutes([post({ post_id: 5, post_title: 'Budget news' })], {
    'POST /api/posts/profile-info': () => json({ has_issue_areas: false }),
    'GET /api/profiles/search': directorySearch,
    'POST /api/posts/add-comment': (call) =>
      json(comment({ post_id: 5, comment_id: 9, comment_body: String(call.body?.comment_body) }), 201),
    ...more,
  });
}

async function commentLine() {
  const card = within(await findCard('Budget news'));
  return (await card.findByRole('combobox', { name: 'Add comment' })) as HTMLInputElement;
}

/** The completion's live region (the page has another status: the test's location probe). */
const announcement = () => document.querySelector('.mention-popup [role="status"]')?.textContent;

const listbox = () => screen.findByRole('listbox', { name: 'People to mention' });

describe('"@" completion in a comment', () => {
  it('offers people after "@" and letters, as an ARIA combobox, and says how many', async () => {
    signIn();
    const calls = stubApi(commentRoutes());
    renderSquare();
    const input = await commentLine();
    expect(input.getAttribute('aria-autocomplete')).toBe('list');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.getAttribute('aria-activedescendant')).toBeNull();

    await userEvent.type(input, 'Thanks @Da');
    const list = await listbox();
    const options = within(list).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Dana SmithPolicy Analyst, Department of Water Stewardship',
      'Daniel OrtizPolicy Analyst, Department of Water Stewardship',
    ]);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(input.getAttribute('aria-controls')).toBe(list.id);
    expect(input.getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    expect(options[0]?.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(input);
    expect(announcement()).toBe('2 people found. Up and down arrows choose, Enter inserts.');
    const searches = callsTo(calls, 'GET /api/profiles/search');
    // Asked once the typing paused, not at every letter.
    expect(searches).toHaveLength(1);
    expect(searches[0]?.url.searchParams.get('search')).toBe('Da');
    expect(searches[0]?.url.searchParams.get('limit')).toBe('6');
  });

  it('offers nobody for an "@" inside a word, such as an email address', async () => {
    signIn();
    const calls = stubApi(commentRoutes());
    renderSquare();
    const input = await commentLine();
    await userEvent.type(input, 'write to dana@Da');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(callsTo(calls, 'GET /api/profiles/search')).toHaveLength(0);
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });

  it('chooses with the arrow keys and Enter, inserts the name and sends the mention', async () => {
    signIn();
    const calls = stubApi(commentRoutes());
    renderSquare();
    const input = await commentLine();
    await userEvent.type(input, 'Thanks @Da');
    const options = within(await listbox()).getAllByRole('option');
    await userEvent.keyboard('{ArrowDown}');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1]?.id);
    await userEvent.keyboard('{ArrowDown}');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    await userEvent.keyboard('{ArrowUp}');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1]?.id);
    await userEvent.keyboard('{Enter}');

    expect(input.value).toBe('Thanks @Daniel Ortiz ');
    expect(input.selectionStart).toBe(input.value.length);
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('listbox')).toBeNull();
    // Enter chose: nothing was sent yet.
    expect(callsTo(calls, 'POST /api/posts/add-comment')).toHaveLength(0);

    await userEvent.type(input, 'for this{Enter}');
    await waitFor(() => expect(callsTo(calls, 'POST /api/posts/add-comment')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/posts/add-comment')[0]?.body).toEqual({
      post_id: 5,
      comment_body: 'Thanks @Daniel Ortiz for this',
      mentions: [78],
    });
  });

  it('chooses with Tab and with a click, and Escape closes the list without choosing', async () => {
    signIn();
    stubApi(commentRoutes());
    renderSquare();
    const input = await commentLine();
    await userEvent.type(input, '@Dan');
    await listbox();
    await userEvent.keyboard('{Tab}');
    expect(input.value).toBe('@Dana Smith ');
    expect(document.activeElement).toBe(input);

    await userEvent.type(input, 'and @Dani');
    await listbox();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input.value).toBe('@Dana Smith and @Dani');

    await userEvent.type(input, '{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}@Da');
    const option = within(await listbox()).getByRole('option', { name: /Daniel Ortiz/ });
    await userEvent.click(option);
    expect(input.value).toBe('@Dana Smith and @Daniel Ortiz ');
  });

  it('does not send a chosen name that was removed from the text', async () => {
    signIn();
    const calls = stubApi(commentRoutes());
    renderSquare();
    const input = await commentLine();
    await userEvent.type(input, 'Ask @Dana');
    await listbox();
    await userEvent.keyboard('{Enter}');
    expect(input.value).toBe('Ask @Dana Smith ');
    // "@Dana Smit" is no longer the name.
    await userEvent.type(input, '{Backspace}{Backspace}');
    await userEvent.type(input, '{Enter}');
    await waitFor(() => expect(callsTo(calls, 'POST /api/posts/add-comment')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/posts/add-comment')[0]?.body).toEqual({
      post_id: 5,
      comment_body: 'Ask @Dana Smit',
    });
  });

  it(`offers nobody more once ${MENTIONS_MAX} people are named, and says why`, async () => {
    signIn();
    const calls = stubApi(commentRoutes());
    renderSquare();
    const input = await commentLine();
    for (let i = 0; i < MENTIONS_MAX; i++) {
      await userEvent.type(input, `@Zed Member${String.fromCharCode(65 + i)}`);
      await listbox();
      await userEvent.keyboard('{Enter}');
    }
    const searches = callsTo(calls, 'GET /api/profiles/search').length;
    await userEvent.type(input, '@Da');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(callsTo(calls, 'GET /api/profiles/search')).toHaveLength(searches);
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(announcement()).toBe(TOO_MANY_MENTIONS);

    await userEvent.type(input, '{Enter}');
    await waitFor(() => expect(callsTo(calls, 'POST /api/posts/add-comment')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/posts/add-comment')[0]?.body?.mentions).toEqual(
      Array.from({ length: MENTIONS_MAX }, (_, i) => 100 + i),
    );
  }, 20_000);
});

describe('"@" completion in a new post', () => {
  it('inserts the chosen name in the body and sends the mention with the post', async () => {
    signIn();
    const calls = stubApi(
      squareRoutes([], {
        'POST /api/posts/profile-info': () => json({ has_issue_areas: false }),
        'GET /api/profiles/search': directorySearch,
        'POST /api/posts/add-post': () => json(post({ post_id: 99 }), 201),
      }),
    );
    renderSquare();
    fireEvent.click(screen.getByRole('button', { name: 'Create Post' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create Post' }));
    const body = await dialog.findByRole('textbox', { name: /Post Body/ });
    expect(body.getAttribute('aria-haspopup')).toBe('listbox');
    expect(body.getAttribute('aria-autocomplete')).toBe('list');

    await userEvent.type(dialog.getByRole('textbox', { name: /Post Title/ }), 'Hearing');
    await userEvent.click(body);
    // Every time the page changes while options show, the editor points at one of them (never at nothing).
    const unpointed: string[] = [];
    const watch = new MutationObserver(() => {
      const shown = document.querySelector('[role="listbox"] [role="option"]');
      if (shown && !document.getElementById(body.getAttribute('aria-activedescendant') ?? ''))
        unpointed.push(shown.id);
    });
    watch.observe(document.body, { subtree: true, childList: true, attributes: true });
    await userEvent.type(body, 'Thanks to @Dan');
    const list = await listbox();
    expect(body.getAttribute('aria-controls')).toBe(list.id);
    const options = within(list).getAllByRole('option');
    expect(body.getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    watch.disconnect();
    expect(unpointed).toEqual([]);
    const paragraphs = body.querySelectorAll('p').length;
    await userEvent.keyboard('{Enter}');
    expect(body.textContent).toBe('Thanks to @Dana Smith ');
    // Enter chose the person; it did not start a new paragraph, nor close the dialog.
    expect(body.querySelectorAll('p')).toHaveLength(paragraphs);
    expect(screen.getByRole('dialog', { name: 'Create Post' })).toBeTruthy();
    expect(body.getAttribute('aria-activedescendant')).toBeNull();
    // Escape closes the list, not the dialog.
    await userEvent.type(body, 'and @Dani');
    await listbox();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Create Post' })).toBeTruthy();

    const type = dialog.getByRole('combobox', { name: /Type of Post/ });
    await waitFor(() => expect(within(type).getAllByRole('option')).toHaveLength(4));
    fireEvent.change(type, { target: { value: '1' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(callsTo(calls, 'POST /api/posts/add-post')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/posts/add-post')[0]?.body).toMatchObject({
      post_title: 'Hearing',
      // "@Dani" was never chosen.
      mentions: [77],
    });
  });
});

describe('mentions shown', () => {
  const dana = { profile_id: 77, first_name: 'Dana', last_name: 'Smith' };

  it("links a post's mentions to the profiles, and nothing that merely looks like one", async () => {
    stubApi(
      squareRoutes([
        post({
          post_title: 'Budget news',
          post_body:
            '<p>Thanks <strong>team</strong>, @Dana Smith and @Someone Else. Mail dana@Dana Smith</p>',
          mentions: [dana],
        }),
      ]),
    );
    renderSquare();
    const card = within(await findCard('Budget news'));
    const link = card.getByRole('link', { name: '@Dana Smith' });
    expect(link.getAttribute('href')).toBe('/profile/77');
    expect(card.getAllByRole('link', { name: /@/ })).toHaveLength(1);
    expect(card.getByText(/@Someone Else/)).toBeTruthy();

    fireEvent.click(link);
    expect(screen.getByTestId('location').textContent).toBe('/profile/77');
  });

  it('links in the whole body of the read modal too', async () => {
    stubApi(
      squareRoutes([
        post({ post_title: 'Budget news', post_body: '<p>With @Dana Smith.</p>', mentions: [dana] }),
      ]),
    );
    renderSquare();
    const card = within(await findCard('Budget news'));
    fireEvent.click(card.getByRole('button', { name: 'Keep Reading' }));
    await waitFor(() => readModal());
    expect(within(readModal()).getByRole('link', { name: '@Dana Smith' }).getAttribute('href')).toBe(
      '/profile/77',
    );
  });

  it("links a comment's mentions, on the card and in the read modal, and never reads the text as markup", async () => {
    const body = '<img src=x onerror="alert(1)"> ping @Dana Smith, not @Dana Smithson';
    stubApi(
      squareRoutes([
        post({
          post_title: 'Budget news',
          PostComments: [comment({ comment_body: body, mentions: [dana] })],
        }),
      ]),
    );
    renderSquare();
    const article = await findCard('Budget news');
    const card = within(article);
    const links = card.getAllByRole('link', { name: /@/ });
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['@Dana Smith', '/profile/77'],
    ]);
    expect(article.querySelector('img')).toBeNull();
    expect(card.getByText(/onerror/)).toBeTruthy();

    fireEvent.click(card.getByRole('button', { name: 'Keep Reading' }));
    await waitFor(() => readModal());
    const modal = within(readModal());
    expect(modal.getAllByRole('link', { name: /@/ }).map((l) => l.getAttribute('href'))).toEqual([
      '/profile/77',
    ]);
    expect(readModal().querySelector('img')).toBeNull();
  });

  it('shows a comment without mentions as plain text', async () => {
    stubApi(
      squareRoutes([
        post({ post_title: 'Budget news', PostComments: [comment({ comment_body: 'Hello @Dana Smith' })] }),
      ]),
    );
    renderSquare();
    const card = within(await findCard('Budget news'));
    expect(card.getByText('Hello @Dana Smith')).toBeTruthy();
    expect(card.queryByRole('link', { name: /@/ })).toBeNull();
  });
});
