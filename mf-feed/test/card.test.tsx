// A post card: type (and event type), title, byline (author linking to their profile, division before
// organization, date in en-US short format), event date and times, the body preview sanitized and cut at 300
// visible characters, the counts, the latest comments with their authors' links; and hostile markup made
// inert wherever a body is shown, keeping only Quill's own classes and no inline style (the cases the post
// service's sanitizer runs too).
import { visibleText } from '@rotunda/rules';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RICH_TEXT_CLASS_CASES } from '../../packages/rules/test/rich-text-cases';
import { PREVIEW_LENGTH, previewOf, sanitizeBody } from '../src/content/rich-text';
import { comment, eventPost, post, squareRoutes, stubApi } from './support/api';
import { findCard, readModal, renderSquare, signIn } from './support/render';

const location = () => screen.getByTestId('location').textContent;

describe('byline and details', () => {
  it('shows type, title, the author linking to their profile, the division, and the date', async () => {
    stubApi(
      squareRoutes([
        post({
          post_id: 1,
          post_title: 'Drought briefing',
          post_author: 77,
          ProfileInfo: { profile_id: 77, first_name: 'Ada', last_name: 'Lopez', user_id: 'u-9' },
          division_name: 'Office of Drought Planning',
          organization_name: 'Department of Water Stewardship',
          created_at: '2026-01-15T18:30:00.000Z',
        }),
        post({ post_id: 2, post_title: 'No division', division_name: null }),
      ]),
    );
    renderSquare();
    const card = await findCard('Drought briefing');
    const view = within(card);
    expect(view.getByText('ANNOUNCEMENT')).toBeTruthy();
    expect(view.getByRole('heading', { name: 'Drought briefing' })).toBeTruthy();
    expect(view.getByText('Office of Drought Planning')).toBeTruthy();
    expect(view.queryByText('Department of Water Stewardship')).toBeNull();
    expect(view.getByText('1/15/26').getAttribute('datetime')).toBe('2026-01-15T18:30:00.000Z');
    const other = within(await findCard('No division'));
    expect(other.getByText('Department of Water Stewardship')).toBeTruthy();

    fireEvent.click(view.getByRole('link', { name: 'Ada Lopez' }));
    expect(location()).toBe('/profile/77');
  });

  it('shows the event type, date and times of an event', async () => {
    stubApi(
      squareRoutes([
        eventPost({
          post_title: 'Budget workshop',
          event_date: '2026-02-03',
          event_start: '09:30',
          event_end: '13:15',
        }),
      ]),
    );
    renderSquare();
    const card = within(await findCard('Budget workshop'));
    expect(card.getByText('EVENT')).toBeTruthy();
    expect(card.getByText('WORKSHOP')).toBeTruthy();
    expect(card.getByText('2/3/26', { exact: false })).toBeTruthy();
    expect(card.getByText('9:30 AM – 1:15 PM', { exact: false })).toBeTruthy();
  });

  it('shows the counts and the latest two comments, each author linking to their profile', async () => {
    stubApi(
      squareRoutes([
        post({
          post_title: 'Commented',
          likes_count: 4,
          PostComments: [
            comment({ comment_id: 1, comment_body: 'First!' }),
            comment({ comment_id: 2, comment_body: 'Second' }),
            comment({
              comment_id: 3,
              comment_body: 'Third',
              comment_author: 88,
              ProfileInfo: { profile_id: 88, first_name: 'Lee', last_name: 'Park' },
            }),
          ],
        }),
      ]),
    );
    renderSquare();
    const article = await findCard('Commented');
    const card = within(article);
    expect(card.getByRole('button', { name: 'Like, 4 likes' })).toBeTruthy();
    expect(article.querySelector('.post-action--static')?.textContent).toBe('3 comments');
    expect(card.queryByText('First!')).toBeNull();
    expect(card.getByText('Second')).toBeTruthy();
    fireEvent.click(card.getByRole('link', { name: 'Lee Park' }));
    expect(location()).toBe('/profile/88');
  });
});

describe('comments on the card', () => {
  it('counts every comment of the post, and shows the latest two of the few the feed carries', async () => {
    stubApi(
      squareRoutes([
        post({
          post_title: 'Busy thread',
          comments_count: 80,
          PostComments: [78, 79, 80].map((id) => comment({ comment_id: id, comment_body: `Comment ${id}` })),
        }),
      ]),
    );
    renderSquare();
    const article = await findCard('Busy thread');
    expect(article.querySelector('.post-action--static')?.textContent).toBe('80 comments');
    const latest = within(within(article).getByRole('list', { name: 'Latest comments' }));
    expect(latest.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Rosa Marquez Comment 79',
      'Rosa Marquez Comment 80',
    ]);
  });
});

describe('body preview', () => {
  const long = `<p>${'a'.repeat(200)} <strong>${'b'.repeat(150)}</strong></p><p>${'c'.repeat(100)}</p>`;

  it('cuts the sanitized body at 300 visible characters without breaking the markup', () => {
    const { html, truncated } = previewOf(long);
    expect(truncated).toBe(true);
    const holder = document.createElement('div');
    holder.innerHTML = html;
    const text = visibleText(holder.textContent ?? '');
    expect(text.endsWith('…')).toBe(true);
    expect(text.slice(0, -1)).toHaveLength(PREVIEW_LENGTH);
    // Still well formed: the <strong> holds the cut and is closed, the later paragraph is gone.
    expect(holder.querySelector('strong')?.textContent).toBe(`${'b'.repeat(99)}…`);
    expect(holder.querySelectorAll('p')).toHaveLength(1);
    expect(html).toBe(`<p>${'a'.repeat(200)} <strong>${'b'.repeat(99)}…</strong></p>`);
  });

  it('leaves a body of 300 visible characters or fewer whole', () => {
    const exact = `<p>${'x'.repeat(150)}</p><p>${'y'.repeat(150)}</p>\n  `;
    expect(previewOf(exact)).toEqual({ html: sanitizeBody(exact), truncated: false });
    expect(previewOf('<p>Short.</p>')).toEqual({ html: '<p>Short.</p>', truncated: false });
  });

  it('counts whitespace runs as one character, as visibleText does', () => {
    const spaced = `<p>${'a '.repeat(160)}</p>`;
    const holder = document.createElement('div');
    holder.innerHTML = previewOf(spaced).html;
    expect(visibleText(holder.textContent ?? '').slice(0, -1)).toHaveLength(PREVIEW_LENGTH - 1);
  });

  it('shows the preview on the card and the whole body in the read modal', async () => {
    stubApi(squareRoutes([post({ post_title: 'Long one', post_body: long })]));
    renderSquare();
    const card = await findCard('Long one');
    expect(card.textContent).not.toContain('c'.repeat(100));
    expect(card.textContent).toContain('…');
    fireEvent.click(within(card).getByRole('button', { name: 'Keep Reading' }));
    await waitFor(() => expect(readModal().textContent).toContain('c'.repeat(100)));
  });
});

describe('hostile markup', () => {
  const payload =
    '<p onclick="window.hacked = 1">Hello <img src=x onerror="window.hacked = 2"></p>' +
    '<script>window.hacked = 3</script>' +
    '<a href="javascript:window.hacked = 4">click me</a> <a href="https://ok.example/">fine</a>' +
    '<iframe src="https://evil.example"></iframe><style>body { display: none }</style>' +
    '<svg><script>window.hacked = 5</script></svg>';

  function expectInert(root: Element) {
    expect(root.querySelector('img, script, iframe, style, svg')).toBeNull();
    for (const element of root.querySelectorAll('*')) {
      for (const attribute of element.attributes) expect(attribute.name.startsWith('on')).toBe(false);
    }
    const links = [...root.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([null, 'https://ok.example/']);
    const safe = links[1];
    expect(safe?.getAttribute('target')).toBe('_blank');
    expect(safe?.getAttribute('rel')).toBe('noopener noreferrer');
    expect((window as { hacked?: number }).hacked).toBeUndefined();
  }

  it('is rendered inert on the card and in the read modal', async () => {
    signIn();
    stubApi(squareRoutes([post({ post_title: 'Hostile', post_body: payload })]));
    renderSquare();
    const card = await findCard('Hostile');
    const preview = card.querySelector('.post-body');
    if (!preview) throw new Error('no preview');
    expect(preview.textContent).toContain('Hello');
    expectInert(preview);
    fireEvent.click(within(card).getByRole('button', { name: 'Keep Reading' }));
    const full = readModal().querySelector('.post-body');
    if (!full) throw new Error('no body');
    expectInert(full);
  });

  it('keeps what the editor makes: bold, italic, underline, lists and links', () => {
    const quill =
      '<p><strong>b</strong> <em>i</em> <u>u</u></p><ol><li data-list="bullet"><span class="ql-ui" contenteditable="false"></span>x</li></ol>';
    const clean = sanitizeBody(quill);
    expect(clean).toContain('<strong>b</strong> <em>i</em> <u>u</u>');
    expect(clean).toContain('<li data-list="bullet">');
    expect(clean).not.toContain('contenteditable');
  });

  it.each(RICH_TEXT_CLASS_CASES)('classes and styles: %s', (_what, dirty, expected) => {
    expect(sanitizeBody(dirty)).toBe(expected);
  });

  it('draws no overlay on the card or in the read modal: the app’s classes and inline styles are gone', async () => {
    const overlay =
      '<p class="toast-region toast" style="position:fixed;inset:0;z-index:9999">Your session has ended.</p>' +
      '<p class="ql-align-center">Centered</p>';
    stubApi(squareRoutes([post({ post_title: 'Overlay', post_body: overlay })]));
    renderSquare();
    const card = await findCard('Overlay');
    const expectPlain = (body: Element | null) => {
      if (!body) throw new Error('no body');
      expect(body.innerHTML).toBe('<p>Your session has ended.</p><p class="ql-align-center">Centered</p>');
      expect(body.querySelector('[style], .toast, .toast-region')).toBeNull();
    };
    expectPlain(card.querySelector('.post-body'));
    fireEvent.click(within(card).getByRole('button', { name: 'Keep Reading' }));
    await waitFor(() => expect(readModal().querySelector('.post-body')).not.toBeNull());
    expectPlain(readModal().querySelector('.post-body'));
  });
});
