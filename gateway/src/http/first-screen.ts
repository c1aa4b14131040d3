// The first screen the gateway draws into the shell's #root (ADR 0053): a post at its own address, readable
// without JavaScript — type, title, byline, event details, the body's paragraphs, the comments, a way to the square;
// or the public square's first page of cards, drawn with mf-feed's own class names and CSS so the remote's first
// render looks the same; both inside the shell's frame as a visitor sees it (its top bar and footer, with the
// shell's class names), which the shell keeps in sight until the remote has drawn its own, then swaps in one step.
// The app starts from the data the page carries too (as GET /api/posts/:id or POST /api/posts/all answers it), asking nothing again. Everything in it is
// member input: escaped, and a body sent as its paragraphs' text (the formatted body comes with the app).
import type { Post } from '@rotunda/protos/post';
import {
  FIRST_FEED_ELEMENT_ID,
  FIRST_POST_ELEMENT_ID,
  FIRST_SCREEN_ATTRIBUTE,
  FRAME_CLASSES as FRAME,
} from '@rotunda/rules';
import { postJson } from '../routes/post-answers.ts';
import { escapeHtml, jsonForScript, plainText, scriptSafeJson } from './post-head.ts';

/** A card shows about this much of the body, as mf-feed's preview does (its PREVIEW_LENGTH). */
const CARD_PREVIEW = 300;
/** A card's latest comments, as mf-feed's CARD_COMMENTS. */
const CARD_COMMENTS = 2;

/** A post as POST /api/posts/all answers it. */
export type FeedPost = ReturnType<typeof postJson>;

const DAY = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const CLOCK = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
const POSTED = new Intl.DateTimeFormat('en-US', {
  month: 'numeric',
  day: 'numeric',
  year: '2-digit',
  timeZone: 'America/Los_Angeles',
});
/** An event's day on a card, as mf-feed's formatEventDate ('1/15/26'). */
const CARD_DAY = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeZone: 'UTC' });

/** 'YYYY-MM-DD' as 'Thursday, January 22, 2027'; the text as given otherwise. */
function dayOf(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? DAY.format(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : day;
}

/** 'YYYY-MM-DD' as '1/22/27'; the text as given otherwise. */
function cardDayOf(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? CARD_DAY.format(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : day;
}

/** 'HH:MM' as '5:30 PM'; the text as given otherwise. */
function timeOf(time: string): string {
  const match = /^(\d{2}):(\d{2})/.exec(time);
  return match ? CLOCK.format(Date.UTC(1970, 0, 1, Number(match[1]), Number(match[2]))) : time;
}

/** The body's blocks (paragraphs, list items, headings, line breaks) as text, empty ones left out. */
export function paragraphsOf(html: string): string[] {
  return html
    .split(/<\/(?:p|li|h\d|blockquote)>|<br\s*\/?>/i)
    .map((part) => plainText(part, Number.POSITIVE_INFINITY))
    .filter((text) => text !== '');
}

const name = (person: { first_name: string; last_name: string } | undefined) =>
  person ? `${person.first_name} ${person.last_name}`.trim() : '';

/** The post as the server draws it, for #root. */
export function postFirstScreen(post: Post): string {
  const byline = [
    name(post.author),
    post.organization_name,
    post.created_at && POSTED.format(post.created_at),
  ]
    .filter(Boolean)
    .map((part) => escapeHtml(String(part)))
    .join(' · ');
  const when = post.event_start
    ? `${timeOf(post.event_start)}${post.event_end ? ` – ${timeOf(post.event_end)}` : ''}`
    : '';
  const details = [
    post.event_location && ['Location', post.event_location],
    post.event_date && ['Date', dayOf(post.event_date)],
    when && ['Time', when],
  ].filter((row): row is [string, string] => Array.isArray(row));
  const comments = post.comments.map(
    (comment) =>
      `<li><strong>${escapeHtml(name(comment.author))}</strong> ${escapeHtml(comment.comment_body)}</li>`,
  );
  return [
    '<div class="first-screen">',
    '<article aria-labelledby="first-screen-title">',
    `<p>${escapeHtml(post.post_type)}</p>`,
    `<h1 id="first-screen-title">${escapeHtml(post.post_title)}</h1>`,
    `<p>${byline}</p>`,
    ...(details.length > 0
      ? [
          `<dl>${details.map(([term, value]) => `<dt>${term}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`,
        ]
      : []),
    ...paragraphsOf(post.post_body).map((text) => `<p>${escapeHtml(text)}</p>`),
    `<h2>Comments (${post.comments_count})</h2>`,
    ...(comments.length > 0 ? [`<ul>${comments.join('')}</ul>`] : []),
    '</article>',
    '<p><a href="/public-square">The public square</a></p>',
    '</div>',
  ].join('');
}

const DOT = '<span class="post-byline__dot" aria-hidden="true">·</span>';

/**
 * An icon's place, as lucide draws it (an <svg> of that size): the same box, so nothing moves when the app draws
 * the icon in it.
 */
const icon = (size: number, extra = '') =>
  `<svg class="lucide${extra ? ` ${extra}` : ''}" width="${size}" height="${size}" aria-hidden="true"></svg>`;

/** One card as mf-feed's PostCard draws it for a visitor, with 'Keep Reading' as a link to the post's address. */
function cardOf(post: FeedPost): string {
  const titleId = `first-card-${post.post_id}`;
  const where = post.division_name || post.organization_name;
  const created = post.created_at ?? '';
  const posted = Date.parse(created);
  const byline = [
    `<a class="post-byline__author" href="/profile/${post.post_author}">${escapeHtml(name(post.ProfileInfo))}</a>`,
    ...(where ? [`${DOT}<span>${escapeHtml(where)}</span>`] : []),
    ...(Number.isNaN(posted)
      ? []
      : [`${DOT}<time datetime="${escapeHtml(created)}">${POSTED.format(posted)}</time>`]),
  ].join('');
  const { event_start: start, event_end: end } = post;
  const when = [
    post.event_date &&
      `<span class="event-when__part">${icon(16)}<span class="visually-hidden">Date: </span>${escapeHtml(cardDayOf(post.event_date))}</span>`,
    start &&
      `<span class="event-when__part">${icon(16)}<span class="visually-hidden">Time: </span>${escapeHtml(
        `${timeOf(start)}${end ? ` – ${timeOf(end)}` : ''}`,
      )}</span>`,
  ].filter(Boolean);
  const preview = plainText(post.post_body, CARD_PREVIEW);
  const comments = post.PostComments.slice(-CARD_COMMENTS).map(
    (comment) =>
      `<li class="card-comments__item"><a class="comment-author" href="/profile/${comment.comment_author}">${escapeHtml(
        name(comment.ProfileInfo),
      )}</a> <span>${escapeHtml(comment.comment_body)}</span></li>`,
  );
  return [
    `<article class="post-card" aria-labelledby="${titleId}">`,
    `<p class="post-types"><span class="chip post-chip">${escapeHtml(post.post_type)}</span>`,
    post.event_type
      ? `<span class="chip post-chip post-chip--event">${escapeHtml(post.event_type)}</span>`
      : '',
    '</p>',
    `<h3 id="${titleId}" class="post-card__title">${escapeHtml(post.post_title)}</h3>`,
    `<p class="post-byline">${byline}</p>`,
    when.length > 0
      ? `<div class="post-card__event"><p class="event-when">${when.join('')}</p>${
          // mf-feed's CalendarLink: the file is built by the app.
          post.event_date && start
            ? `<a class="calendar-link" role="link" aria-disabled="true">${icon(16)}Add to calendar</a>`
            : ''
        }</div>`
      : '',
    preview ? `<div class="post-body post-card__preview"><p>${escapeHtml(preview)}</p></div>` : '',
    // mf-feed's LikeButton, comment count, ShareButtons (Copy link; Share needs the phone's script) and
    // CommentForm as a visitor has them: what needs the app waits for it (aria-disabled, disabled).
    '<div class="post-card__actions">',
    `<button type="button" class="post-action like-button" aria-pressed="false" aria-disabled="true" aria-label="Like, ${post.likes_count} ${post.likes_count === 1 ? 'like' : 'likes'}" title="Log in to like posts">${icon(18)}<span aria-hidden="true">${post.likes_count}</span></button>`,
    `<span class="post-action post-action--static">${icon(18)}<span>${post.comments_count}<span class="visually-hidden">${post.comments_count === 1 ? ' comment' : ' comments'}</span></span></span>`,
    `<span class="share"><button type="button" class="button button--quiet share__button" aria-describedby="${titleId}" aria-disabled="true">${icon(16)}Copy link</button><span class="share__said" role="status"></span></span>`,
    `<a class="button button--quiet post-card__read" href="/public-square/post/${post.post_id}" aria-describedby="${titleId}">Keep Reading</a>`,
    '</div>',
    comments.length > 0
      ? `<ul class="card-comments" aria-label="Latest comments">${comments.join('')}</ul>`
      : '',
    `<form class="comment-form"><label class="visually-hidden" for="${titleId}-comment">Add comment</label>`,
    `<input id="${titleId}-comment" class="field__input comment-form__input" type="text" placeholder="Log in to comment" disabled>`,
    `<button type="button" class="icon-button comment-form__send" aria-label="Send comment" disabled>${icon(18)}</button></form>`,
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

/**
 * The public square's first page as the server draws it, for #root: mf-feed's heading, its toolbar and its list of
 * cards, in its two columns (the news column left to the app) or, on a narrow window, the Posts / Headlines toggle
 * above one (square.css decides which from the window's width, as PublicSquare does from the square's).
 */
export function squareFirstScreen(posts: readonly FeedPost[]): string {
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
    '</div>',
  ].join('');
}

/** The square's first page as POST /api/posts/all answered it (its JSON text), for mf-feed's first render. */
export const feedData = (json: string) =>
  `<script type="application/json" id="${FIRST_FEED_ELEMENT_ID}">${scriptSafeJson(json)}</script>`;

/** The post as GET /api/posts/:id answers it, for the remote's first render (no second fetch). */
export const postData = (post: Post) =>
  `<script type="application/json" id="${FIRST_POST_ELEMENT_ID}">${jsonForScript(postJson(post))}</script>`;

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
