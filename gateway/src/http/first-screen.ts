// The first screen the gateway draws into the shell's #root (ADR 0053): the public square's first page of cards,
// and at a post's own address the same square with the post's read dialog open over it, readable without
// JavaScript — type, title, byline, event details, the body's paragraphs, the comments, a way back to the square.
// Both are drawn with mf-feed's own class names and CSS so the remote's first render looks the same, inside the
// shell's frame as a visitor sees it (its top bar and footer, with the shell's class names), which the shell keeps
// in sight until the remote has drawn its own, then swaps in one step. The app starts from the data the page
// carries too (as GET /api/posts/:id or POST /api/posts/all answers it), asking nothing again. Everything in it is
// member input: escaped, and a body sent as its paragraphs' text (the formatted body comes with the app).
import {
  EVENT_POST_TYPE_ID,
  eventTimeRange,
  FIRST_FEED_ELEMENT_ID,
  FIRST_POST_ELEMENT_ID,
  FIRST_SCREEN_ATTRIBUTE,
  FRAME_CLASSES as FRAME,
  formatEventDate,
  formatPostedOn,
  fullName,
} from '@rotunda/rules';
import type { postJson } from '../routes/post-answers.ts';
import { escapeHtml, jsonForScript, plainText, scriptSafeJson } from './post-head.ts';

/** A card shows about this much of the body, as mf-feed's preview does (its PREVIEW_LENGTH). */
const CARD_PREVIEW = 300;
/** A card's latest comments, as mf-feed's CARD_COMMENTS. */
const CARD_COMMENTS = 2;

/** A post as POST /api/posts/all and GET /api/posts/:id answer it. */
export type FeedPost = ReturnType<typeof postJson>;

/** The body's blocks (paragraphs, list items, headings, line breaks) as text, empty ones left out. */
export function paragraphsOf(html: string): string[] {
  return html
    .split(/<\/(?:p|li|h\d|blockquote)>|<br\s*\/?>/i)
    .map((part) => plainText(part, Number.POSITIVE_INFINITY))
    .filter((text) => text !== '');
}

const DOT = '<span class="post-byline__dot" aria-hidden="true">·</span>';

/**
 * An icon's place, as lucide draws it (an <svg> of that size): the same box, so nothing moves when the app draws
 * the icon in it.
 */
const icon = (size: number, extra = '') =>
  `<svg class="lucide${extra ? ` ${extra}` : ''}" width="${size}" height="${size}" aria-hidden="true"></svg>`;

/** mf-feed's PostTypeLine: the type, and an event's kind. */
function typeLine(post: FeedPost): string {
  const kind =
    post.posttype_id === EVENT_POST_TYPE_ID && post.event_type
      ? `<span class="chip post-chip post-chip--event">${escapeHtml(post.event_type)}</span>`
      : '';
  return `<p class="post-types"><span class="chip post-chip">${escapeHtml(post.post_type)}</span>${kind}</p>`;
}

/** mf-feed's Byline: the author (a link to their profile), where they post from, and the day. */
function bylineOf(post: FeedPost): string {
  const where = post.division_name || post.organization_name;
  const created = post.created_at ?? '';
  const posted = formatPostedOn(created);
  return [
    `<p class="post-byline"><a class="post-byline__author" href="/profile/${post.post_author}">${escapeHtml(fullName(post.ProfileInfo))}</a>`,
    where ? `${DOT}<span>${escapeHtml(where)}</span>` : '',
    posted ? `${DOT}<time datetime="${escapeHtml(created)}">${posted}</time>` : '',
    '</p>',
  ].join('');
}

/** mf-feed's CalendarLink, which needs the app to build its file; '' where the event has no day and start. */
const calendarLink = (post: FeedPost) =>
  post.event_date && post.event_start
    ? `<a class="calendar-link" role="link" aria-disabled="true">${icon(16)}Add to calendar</a>`
    : '';

/** mf-feed's ShareButtons as a visitor first has them: Copy link waits for the app (Share needs a phone's). */
const shareButtons = (describedBy?: string) =>
  `<span class="share"><button type="button" class="button button--quiet share__button"${
    describedBy ? ` aria-describedby="${describedBy}"` : ''
  } aria-disabled="true">${icon(16)}Copy link</button><span class="share__said" role="status"></span></span>`;

/** mf-feed's CommentForm as a visitor has it: shown, not usable. */
const commentForm = (id: string) =>
  [
    `<form class="comment-form"><label class="visually-hidden" for="${id}">Add comment</label>`,
    `<input id="${id}" class="field__input comment-form__input" type="text" placeholder="Log in to comment" disabled>`,
    `<button type="button" class="icon-button comment-form__send" aria-label="Send comment" disabled>${icon(18)}</button></form>`,
  ].join('');

/** One card as mf-feed's PostCard draws it for a visitor, with 'Keep Reading' as a link to the post's address. */
function cardOf(post: FeedPost): string {
  const titleId = `first-card-${post.post_id}`;
  const time = eventTimeRange(post);
  const when = [
    post.event_date &&
      `<span class="event-when__part">${icon(16)}<span class="visually-hidden">Date: </span>${escapeHtml(formatEventDate(post.event_date))}</span>`,
    time &&
      `<span class="event-when__part">${icon(16)}<span class="visually-hidden">Time: </span>${escapeHtml(time)}</span>`,
  ].filter(Boolean);
  const preview = plainText(post.post_body, CARD_PREVIEW);
  const comments = post.PostComments.slice(-CARD_COMMENTS).map(
    (comment) =>
      `<li class="card-comments__item"><a class="comment-author" href="/profile/${comment.comment_author}">${escapeHtml(
        fullName(comment.ProfileInfo),
      )}</a> <span>${escapeHtml(comment.comment_body)}</span></li>`,
  );
  return [
    `<article class="post-card" aria-labelledby="${titleId}">`,
    typeLine(post),
    `<h3 id="${titleId}" class="post-card__title">${escapeHtml(post.post_title)}</h3>`,
    bylineOf(post),
    when.length > 0
      ? `<div class="post-card__event"><p class="event-when">${when.join('')}</p>${calendarLink(post)}</div>`
      : '',
    preview ? `<div class="post-body post-card__preview"><p>${escapeHtml(preview)}</p></div>` : '',
    // mf-feed's LikeButton, comment count, ShareButtons and 'Keep Reading' as a visitor has them: what needs the
    // app waits for it (aria-disabled).
    '<div class="post-card__actions">',
    `<button type="button" class="post-action like-button" aria-pressed="false" aria-disabled="true" aria-label="Like, ${post.likes_count} ${post.likes_count === 1 ? 'like' : 'likes'}" title="Log in to like posts">${icon(18)}<span aria-hidden="true">${post.likes_count}</span></button>`,
    `<span class="post-action post-action--static">${icon(18)}<span>${post.comments_count}<span class="visually-hidden">${post.comments_count === 1 ? ' comment' : ' comments'}</span></span></span>`,
    shareButtons(titleId),
    `<a class="button button--quiet post-card__read" href="/public-square/post/${post.post_id}" aria-describedby="${titleId}">Keep Reading</a>`,
    '</div>',
    comments.length > 0
      ? `<ul class="card-comments" aria-label="Latest comments">${comments.join('')}</ul>`
      : '',
    commentForm(`${titleId}-comment`),
    '</article>',
  ].join('');
}

/** mf-feed's toggle pills (Show, the order): the first pressed; they wait for the app. */
const pills = (legend: string, labels: readonly string[], extra = '') =>
  [
    `<fieldset class="toggle-row${extra}"><legend class="visually-hidden">${legend}</legend>`,
    ...labels.map(
      (label, index) =>
        `<button type="button" class="toggle-pill feed-sort__button" aria-pressed="${index === 0}" aria-disabled="true">${label}</button>`,
    ),
    '</fieldset>',
  ].join('');

/**
 * mf-feed's toolbar above the feed (FeedToolbar) as a visitor first sees it: its controls wait for the app
 * (aria-disabled, read-only), so nothing typed or picked before the take-over is lost.
 */
const TOOLBAR = [
  '<div class="panel feed-toolbar"><div class="feed-toolbar__row">',
  '<form class="feed-toolbar__search" role="search" aria-label="Search posts">',
  '<label class="visually-hidden" for="first-screen-search">Search posts</label>',
  `<span class="search-field">${icon(18, 'search-field__icon')}<input id="first-screen-search" class="field__input search-field__input" type="search" placeholder="Search posts" readonly aria-disabled="true"></span>`,
  '</form>',
  `<button type="button" class="button button--primary feed-toolbar__create" aria-disabled="true">${icon(18)}Create Post</button>`,
  '</div><div class="feed-toolbar__row">',
  pills('Order of posts', ['Recent', 'Popular', 'Random']),
  '<div class="feed-toolbar__filter">',
  '<label class="visually-hidden" for="first-screen-type">Filter by type</label>',
  '<select id="first-screen-type" class="field__input field__input--select feed-toolbar__type" aria-disabled="true"><option value="">All types of posts</option></select>',
  `<button type="button" class="button button--quiet" aria-disabled="true">${icon(16)}Reset</button>`,
  '</div></div></div>',
].join('');

/** mf-feed's CommentList item as a visitor sees it: author, day, 'edited', the text. */
function commentOf(comment: FeedPost['PostComments'][number]): string {
  const created = comment.createdAt ?? '';
  const edited = Date.parse(comment.updatedAt ?? '') > Date.parse(created);
  return [
    '<li class="comment"><div class="comment__header">',
    `<a class="comment-author" href="/profile/${comment.comment_author}">${escapeHtml(fullName(comment.ProfileInfo))}</a>`,
    `<span class="comment__meta"><time datetime="${escapeHtml(created)}">${formatPostedOn(created)}</time>`,
    edited ? '<span class="comment__edited"> · edited</span>' : '',
    '</span><span class="comment__tools"></span></div>',
    `<p class="comment__body">${escapeHtml(comment.comment_body)}</p></li>`,
  ].join('');
}

/** mf-feed's EventDetails in the read dialog: where, which day, when, and 'Add to calendar'. */
function eventDetailsOf(post: FeedPost): string {
  const time = eventTimeRange(post);
  const rows = [
    post.event_location &&
      `<div class="event-details__location"><dt>Location</dt><dd>${escapeHtml(post.event_location)}</dd></div>`,
    post.event_date && `<div><dt>Date</dt><dd>${escapeHtml(formatEventDate(post.event_date))}</dd></div>`,
    time && `<div><dt>Time</dt><dd>${escapeHtml(time)}</dd></div>`,
  ].filter(Boolean);
  return `<div class="event-details"><dl class="event-details__list">${rows.join('')}</dl>${calendarLink(post)}</div>`;
}

/**
 * The post's read dialog (mf-feed's ReadPostDialog in @rotunda/ui's Dialog) as a visitor first sees it, drawn open
 * over the square with the page's own backdrop (a modal's needs script): whole, readable and closable (a link to
 * the square) without JavaScript.
 */
function readDialogOf(post: FeedPost): string {
  const comments = post.PostComments.map(commentOf);
  const earlier = post.PostComments.length < post.comments_count;
  return [
    '<div class="dialog-backdrop"></div>',
    '<dialog class="dialog dialog--wide dialog--drawn" open aria-labelledby="first-screen-title">',
    '<div class="dialog__panel"><div class="dialog__header">',
    `<div><h2 id="first-screen-title" class="dialog__title">${escapeHtml(post.post_title)}</h2></div>`,
    `<a class="icon-button" href="/public-square" aria-label="Close">${icon(20)}</a></div>`,
    '<div class="dialog-form"><div class="read-post__body dialog__body">',
    `<div class="read-post__top">${typeLine(post)}<span class="read-post__tools"></span></div>`,
    bylineOf(post),
    post.posttype_id === EVENT_POST_TYPE_ID ? eventDetailsOf(post) : '',
    `<div class="post-body read-post__text">${paragraphsOf(post.post_body)
      .map((text) => `<p>${escapeHtml(text)}</p>`)
      .join('')}</div>`,
    '<section class="read-post__comments" aria-labelledby="first-screen-comments">',
    `<h3 id="first-screen-comments" tabindex="-1" class="read-post__comments-title">Comments (${post.comments_count})</h3>`,
    earlier
      ? '<div class="comments__earlier"><button type="button" class="button button--quiet" aria-disabled="true">Show earlier comments</button></div>'
      : '',
    comments.length > 0
      ? `<ul class="comments">${comments.join('')}</ul>`
      : '<p class="comments__none">No comments yet.</p>',
    commentForm('first-screen-comment'),
    '</section></div>',
    `<div class="read-post__footer">${shareButtons()}<a class="button button--secondary" href="/public-square">Close</a></div>`,
    '</div></div></dialog>',
  ].join('');
}

/**
 * The public square's first page as the server draws it, for #root: mf-feed's heading, its toolbar and its list of
 * cards, in its two columns (the news column left to the app) or, on a narrow window, the Posts / Headlines toggle
 * above one (square.css decides which from the window's width, as PublicSquare does from the square's); at a
 * post's address, with the post's read dialog open over it.
 */
export function squareFirstScreen(posts: readonly FeedPost[], reading?: FeedPost): string {
  return [
    '<div class="first-screen page square">',
    '<header><h1 class="page-title">Public Square</h1>',
    '<p class="page-lede">Announcements, events and the day&rsquo;s news from California&rsquo;s policy community.</p>',
    '</header>',
    pills('Show', ['Posts', 'Headlines'], ' square__toggle'),
    '<div class="square__columns square__columns--two"><div class="square__main">',
    TOOLBAR,
    '<section class="feed" aria-labelledby="feed-title">',
    '<h2 id="feed-title" class="visually-hidden">Posts</h2>',
    `<ul class="card-grid feed-list">${posts.map((post) => `<li>${cardOf(post)}</li>`).join('')}</ul>`,
    '</section>',
    '</div><aside class="square__aside" aria-label="News"></aside></div>',
    reading ? readDialogOf(reading) : '',
    '</div>',
  ].join('');
}

/** The square's first page as POST /api/posts/all answered it (its JSON text), for mf-feed's first render. */
export const feedData = (json: string) =>
  `<script type="application/json" id="${FIRST_FEED_ELEMENT_ID}">${scriptSafeJson(json)}</script>`;

/** The post as GET /api/posts/:id answers it, for the remote's first render (no second fetch). */
export const postData = (post: FeedPost) =>
  `<script type="application/json" id="${FIRST_POST_ELEMENT_ID}">${jsonForScript(post)}</script>`;

/**
 * The shell's frame as a visitor first sees it (its Layout and TopBar): the controls that need the app are
 * aria-disabled until it takes over, the icons come with it (their places are kept).
 */
function frame(screen: string): string {
  const link = (href: string, label: string) =>
    `<a href="${href}" class="${FRAME.iconButton}" aria-label="${label}" title="${label}">${icon(20)}</a>`;
  return [
    `<div class="${FRAME.app}" ${FIRST_SCREEN_ATTRIBUTE}>`,
    `<a class="${FRAME.skipLink}" href="#main">Skip to content</a>`,
    `<header class="${FRAME.topbar}"><div class="${FRAME.topbarStart}">`,
    `<button type="button" class="${FRAME.iconButton} ${FRAME.topbarMenu}" aria-label="Open menu" aria-disabled="true">${icon(22)}</button>`,
    link('/public-square', 'Public Square'),
    `<a href="/public-square" class="${FRAME.brand}">Rotunda</a>`,
    `</div><div class="${FRAME.topbarEnd}">`,
    link('/profile/create', 'Profile'),
    `<button type="button" class="${FRAME.iconButton}" aria-label="Log in" title="Log in" aria-disabled="true">${icon(20)}</button>`,
    '</div></header>',
    `<div class="${FRAME.body}"><main id="main" class="${FRAME.main}" tabindex="-1">${screen}</main></div>`,
    `<footer class="${FRAME.footer}"><p>&copy; 2024 Rotunda. All rights reserved.</p>`,
    '<nav aria-label="About Rotunda"><a href="/accessibility">Accessibility statement</a></nav></footer>',
    '</div>',
  ].join('');
}

/** The shell's page with `screen` drawn in its frame in #root, and `data` after it. */
export const withFirstScreen = (html: string, screen: string, data = '') =>
  html.replace(/<div id="root"><\/div>/, () => `<div id="root">${frame(screen)}</div>${data}`);
