// The first screen the gateway draws into the shell's #root (ADR 0053): a post at its own address, readable
// without JavaScript — type, title, byline, event details, the body's paragraphs, the comments, a way to the square.
// React's createRoot replaces it when the app starts, and starts from the post's data the page carries too (as
// GET /api/posts/:id answers it), asking nothing again. Everything in it is member input: escaped, and the body
// sent as its paragraphs' text (the formatted body comes with the app).
import type { Post } from '@rotunda/protos/post';
import { postJson } from '../routes/post-answers.ts';
import { escapeHtml, jsonForScript, plainText } from './post-head.ts';

/** The element the post's REST answer travels in, for mf-feed to start from instead of asking again. */
export const FIRST_POST_ELEMENT_ID = 'rotunda-first-post';

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

/** 'YYYY-MM-DD' as 'Thursday, January 22, 2027'; the text as given otherwise. */
function dayOf(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? DAY.format(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : day;
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
    '<main class="first-screen">',
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
    '</main>',
  ].join('');
}

/** The post as GET /api/posts/:id answers it, for the remote's first render (no second fetch). */
export const postData = (post: Post) =>
  `<script type="application/json" id="${FIRST_POST_ELEMENT_ID}">${jsonForScript(postJson(post))}</script>`;

/** The shell's page with `screen` drawn in its #root and `data` after it (the app's start empties #root). */
export const withFirstScreen = (html: string, screen: string, data = '') =>
  html.replace(/<div id="root"><\/div>/, () => `<div id="root">${screen}</div>${data}`);
