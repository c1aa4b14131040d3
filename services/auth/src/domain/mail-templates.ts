// The auth service's mails (confirm email, reset password, already registered) as plain text and simple HTML.
// Pure functions: the caller adds the recipient and sends. Every value is escaped in the HTML part, since a
// first name is whatever someone typed into the register form.
import type { MailMessage } from './ports.ts';

export type MailContent = Omit<MailMessage, 'to'>;

export interface ConfirmationMailInput {
  firstName: string;
  /** The `/confirm-email/<token>` link. */
  link: string;
  productName: string;
  /** The provider's address for questions and access requests. */
  accessEmail: string;
  /** The token's lifetime, which the mail states; defaults to CONFIRMATION_VALID_HOURS. */
  validHours?: number;
}

export interface PasswordResetMailInput {
  firstName: string;
  /** The `/reset-password/<token>` link. */
  link: string;
  productName: string;
  accessEmail: string;
  expiresInMinutes: number;
}

export interface AlreadyRegisteredMailInput {
  firstName: string;
  loginUrl: string;
  /** Where to ask for a password reset. */
  resetUrl: string;
  productName: string;
  accessEmail: string;
}

/** Confirmation links live this long unless the caller says otherwise; the token must match. */
export const CONFIRMATION_VALID_HOURS = 24;

export function confirmationMail(input: ConfirmationMailInput): MailContent {
  safeUrl(input.link);
  const product = clean(input.productName);
  const subject = `Confirm your email for ${product}`;
  const intro = `Thanks for registering with ${product}. Please confirm your email address to finish setting up your account.`;
  const validity = `The link is valid for ${hours(input.validHours ?? CONFIRMATION_VALID_HOURS)}. If you did not register, you can ignore this email.`;
  return {
    subject,
    text: textMail(input, [intro, `Confirm your email:\n${input.link}`, validity]),
    html: htmlMail(input, subject, [
      paragraph(intro),
      button('Confirm my email', input.link),
      rawLink(input.link),
      paragraph(validity),
    ]),
  };
}

export function passwordResetMail(input: PasswordResetMailInput): MailContent {
  safeUrl(input.link);
  const product = clean(input.productName);
  const subject = `Reset your ${product} password`;
  const intro = `We received a request to reset the password of your ${product} account.`;
  const validity =
    `The link is valid for ${minutes(input.expiresInMinutes)} and works once. ` +
    'If you did not ask for a new password, ignore this email: your password stays the same.';
  return {
    subject,
    text: textMail(input, [intro, `Choose a new password:\n${input.link}`, validity]),
    html: htmlMail(input, subject, [
      paragraph(intro),
      button('Choose a new password', input.link),
      rawLink(input.link),
      paragraph(validity),
    ]),
  };
}

/**
 * Sent instead of a confirmation when the address already has an account, so the register answer is the
 * same for everyone and only the address's owner learns that the account exists.
 */
export function alreadyRegisteredMail(input: AlreadyRegisteredMailInput): MailContent {
  safeUrl(input.loginUrl);
  safeUrl(input.resetUrl);
  const product = clean(input.productName);
  const subject = `You already have a ${product} account`;
  const intro = `Someone, hopefully you, tried to register for ${product} with this email address. It already has an account, so no new one was created.`;
  const forgot = 'Forgot your password? You can choose a new one.';
  const ignore = 'If this was not you, you can ignore this email: nothing has changed.';
  return {
    subject,
    text: textMail(input, [intro, `Log in:\n${input.loginUrl}`, `${forgot}\n${input.resetUrl}`, ignore]),
    html: htmlMail(input, subject, [
      paragraph(intro),
      button('Log in', input.loginUrl),
      rawLink(input.loginUrl),
      paragraph(forgot),
      rawLink(input.resetUrl, 'Reset your password:'),
      paragraph(ignore),
    ]),
  };
}

interface Common {
  firstName: string;
  productName: string;
  accessEmail: string;
}

function textMail(input: Common, paragraphs: string[]): string {
  return [
    greeting(input.firstName),
    ...paragraphs,
    `Questions? Write to ${clean(input.accessEmail)}.`,
    `— ${clean(input.productName)}`,
  ].join('\n\n');
}

// Inline styles only (mail clients drop <style> and external CSS); no images, so nothing loads from afar.
const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const TEXT_STYLE = `${FONT};font-size:16px;line-height:1.5;color:#1f2933;margin:0 0 16px`;
const SMALL_TEXT_STYLE = `${FONT};font-size:14px;line-height:1.5;color:#1f2933;margin:0 0 16px`;

function htmlMail(input: Common, subject: string, body: string[]): string {
  const accessEmail = clean(input.accessEmail);
  const product = escapeHtml(clean(input.productName));
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:0;background-color:#f4f5f7">',
    `<div role="article" aria-label="${escapeHtml(subject)}" lang="en" style="max-width:560px;margin:0 auto;padding:32px 24px;background-color:#ffffff">`,
    `<p style="${FONT};font-size:20px;font-weight:700;color:#1f2933;margin:0 0 24px">${product}</p>`,
    paragraph(greeting(input.firstName)),
    ...body,
    `<p style="${TEXT_STYLE}">Questions? Write to <a href="mailto:${escapeHtml(accessEmail)}" style="color:#1d4ed8">${escapeHtml(accessEmail)}</a>.</p>`,
    `<p style="${TEXT_STYLE}">— ${product}</p>`,
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');
}

function paragraph(text: string): string {
  return `<p style="${TEXT_STYLE}">${escapeHtml(text)}</p>`;
}

function button(label: string, url: string): string {
  // White on #1d4ed8 is above 6:1 contrast; padding makes a comfortable touch target.
  return (
    `<p style="margin:0 0 16px"><a href="${escapeHtml(safeUrl(url))}" ` +
    `style="${FONT};display:inline-block;background-color:#1d4ed8;color:#ffffff;font-size:16px;font-weight:600;` +
    `text-decoration:none;padding:12px 24px;border-radius:6px">${escapeHtml(label)}</a></p>`
  );
}

/** The link written out, for clients that hide buttons and for people who copy links by hand. */
function rawLink(
  url: string,
  lead = 'If the button does not work, copy this link into your browser:',
): string {
  const href = escapeHtml(safeUrl(url));
  return (
    `<p style="${SMALL_TEXT_STYLE}">${escapeHtml(lead)}<br>` +
    `<a href="${href}" style="color:#1d4ed8;word-break:break-all">${href}</a></p>`
  );
}

function greeting(firstName: string): string {
  const name = clean(firstName);
  return name ? `Hello ${name},` : 'Hello,';
}

function hours(count: number): string {
  if (!Number.isSafeInteger(count) || count < 1)
    throw new Error(`Link lifetime must be whole hours, got ${count}`);
  return count === 1 ? '1 hour' : `${count} hours`;
}

function minutes(count: number): string {
  if (!Number.isSafeInteger(count) || count < 1)
    throw new Error(`Link lifetime must be whole minutes, got ${count}`);
  return count === 1 ? '1 minute' : `${count} minutes`;
}

/**
 * One line of at most 100 characters: a typed name must not add lines or paragraphs of its own to the
 * plain-text mail (a fake "click here" under the greeting, say).
 */
function clean(value: string): string {
  const line = value
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // By code point, so a name is never cut inside an emoji.
  const chars = [...line];
  return chars.length > 100 ? `${chars.slice(0, 99).join('')}…` : line;
}

/**
 * Links are made by the server; one that is not a plain http(s) URL is a bug, never something to mail.
 * Whitespace is refused too: the URL parser would drop it, but the plain-text part would print it.
 */
function safeUrl(url: string): string {
  const protocol = URL.canParse(url) ? new URL(url).protocol : '';
  if ((protocol !== 'https:' && protocol !== 'http:') || /[\s\p{Cc}]/u.test(url)) {
    throw new Error(`Mail link must be a plain http(s) URL: ${JSON.stringify(url)}`);
  }
  return url;
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
