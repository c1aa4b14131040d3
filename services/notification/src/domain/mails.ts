// The notification service's mails, in plain text and simple HTML: one notification mailed as it happens, and
// the daily or weekly digest. Every one carries the member's one-click unsubscribe (RFC 8058) in its headers and
// its body. Every value is escaped in the HTML part: names and titles are whatever members typed.
import type { EmailDigest } from '@rotunda/rules';
import { type Notification, notificationText } from './notification.ts';
import type { MailMessage, RecentPost } from './ports.ts';

export const PRODUCT_NAME = 'Rotunda';

export interface MailLinks {
  /** The app's public address, e.g. https://rotunda.example (no trailing slash). */
  publicUrl: string;
  unsubscribeToken: string;
}

/** Where a notification leads in the app: its post (a comment opens its post) or its profile. */
export function notificationLink(publicUrl: string, notification: Pick<Notification, 'target'>): string {
  const { target } = notification;
  if (target.type === 'profile') return `${publicUrl}/profile/${target.id}`;
  return `${publicUrl}/public-square/post/${target.type === 'comment' ? (target.postId ?? target.id) : target.id}`;
}

export const postLink = (publicUrl: string, postId: number) => `${publicUrl}/public-square/post/${postId}`;

export function unsubscribeUrl(links: MailLinks): string {
  return `${links.publicUrl}/api/notifications/unsubscribe?token=${encodeURIComponent(links.unsubscribeToken)}`;
}

type Content = Omit<MailMessage, 'to'>;

/** One notification, mailed as it happens (mentions, claim and moderation decisions the member chose). */
export function immediateMail(notification: Notification, links: MailLinks): Content {
  const text = oneLine(notificationText(notification));
  const link = notificationLink(links.publicUrl, notification);
  const subject = oneLine(text);
  return mail(subject, links, [
    { text: `${text}.`, html: paragraph(`${text}.`) },
    { text: `Open it: ${link}`, html: linkParagraph('Open it in Rotunda', link) },
  ]);
}

export interface DigestContent {
  digest: Exclude<EmailDigest, 'off'>;
  notifications: Notification[];
  /** All unread since the last digest (more than those listed, at times). */
  unreadTotal: number;
  posts: RecentPost[];
}

/** The daily or weekly digest: unread notifications since the last one, and new posts in the member's areas. */
export function digestMail(content: DigestContent, links: MailLinks): Content {
  const period = content.digest === 'daily' ? 'daily' : 'weekly';
  const subject = `Your ${period} ${PRODUCT_NAME} digest`;
  const blocks: Block[] = [];
  if (content.notifications.length > 0) {
    const heading =
      content.unreadTotal === 1
        ? 'You have 1 unread notification'
        : `You have ${content.unreadTotal} unread notifications`;
    blocks.push(
      { text: `${heading}:`, html: paragraph(`${heading}:`) },
      list(
        content.notifications.map((n) => ({
          label: notificationText(n),
          url: notificationLink(links.publicUrl, n),
        })),
      ),
    );
    if (content.unreadTotal > content.notifications.length) {
      const all = `${links.publicUrl}/notifications`;
      blocks.push({ text: `See them all: ${all}`, html: linkParagraph('See them all', all) });
    }
  }
  if (content.posts.length > 0) {
    blocks.push(
      { text: 'New posts in your issue areas:', html: paragraph('New posts in your issue areas:') },
      list(content.posts.map((p) => ({ label: `“${p.title}”`, url: postLink(links.publicUrl, p.postId) }))),
    );
  }
  return mail(subject, links, blocks);
}

interface Block {
  text: string;
  html: string;
}

function list(items: { label: string; url: string }[]): Block {
  return {
    text: items.map((item) => `- ${oneLine(item.label)}\n  ${item.url}`).join('\n'),
    html: `<ul style="${TEXT_STYLE};padding-left:20px">${items
      .map(
        (item) =>
          `<li><a href="${escapeHtml(item.url)}" style="color:#1d4ed8">${escapeHtml(oneLine(item.label))}</a></li>`,
      )
      .join('')}</ul>`,
  };
}

function mail(subject: string, links: MailLinks, blocks: Block[]): Content {
  const unsubscribe = unsubscribeUrl(links);
  const settings = `${links.publicUrl}/settings`;
  const footer = 'You get this mail because of your notification settings.';
  const text = [
    ...blocks.map((block) => block.text),
    `${footer} Change them: ${settings}`,
    `Unsubscribe from every notification mail: ${unsubscribe}`,
    `— ${PRODUCT_NAME}`,
  ].join('\n\n');
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:0;background-color:#f4f5f7">',
    `<div role="article" aria-label="${escapeHtml(subject)}" lang="en" style="max-width:560px;margin:0 auto;padding:32px 24px;background-color:#ffffff">`,
    `<p style="${FONT};font-size:20px;font-weight:700;color:#1f2933;margin:0 0 24px">${PRODUCT_NAME}</p>`,
    ...blocks.map((block) => block.html),
    `<p style="${SMALL_TEXT_STYLE}">${escapeHtml(footer)} <a href="${escapeHtml(settings)}" style="color:#1d4ed8">Change them</a>.</p>`,
    `<p style="${SMALL_TEXT_STYLE}"><a href="${escapeHtml(unsubscribe)}" style="color:#1d4ed8">Unsubscribe from every notification mail</a></p>`,
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');
  return {
    subject: oneLine(subject),
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

// Inline styles only (mail clients drop <style> and external CSS), as the account mails have them.
const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const TEXT_STYLE = `${FONT};font-size:16px;line-height:1.5;color:#1f2933;margin:0 0 16px`;
const SMALL_TEXT_STYLE = `${FONT};font-size:14px;line-height:1.5;color:#52606d;margin:0 0 16px`;

const paragraph = (text: string) => `<p style="${TEXT_STYLE}">${escapeHtml(text)}</p>`;

const linkParagraph = (label: string, url: string) =>
  `<p style="${TEXT_STYLE}"><a href="${escapeHtml(url)}" style="color:#1d4ed8">${escapeHtml(label)}</a></p>`;

/** One line: a typed title must not add lines of its own to the plain-text mail or a header. */
function oneLine(value: string): string {
  return value
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
