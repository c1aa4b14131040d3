// Test support for the auth service: a real MailDev inbox to read links from, and captcha solving exactly as
// the ALTCHA widget does in the browser.
import { createServer } from 'node:net';
import { solveChallenge } from 'altcha-lib/v1';
import { MailDev } from 'maildev';

/** A port nothing listens on right now (taken from the OS, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface InboxMail {
  subject: string;
  text: string;
  html: string;
  to: { address: string; name: string }[];
  from: { address: string; name: string }[];
}

export interface Inbox {
  smtpUrl: string;
  /** Every mail received so far (MailDev v3's REST API, /api/email). */
  all(): Promise<InboxMail[]>;
  /** Waits for the next mail to this address whose subject matches. */
  waitFor(to: string, subject?: RegExp): Promise<InboxMail>;
  stop(): Promise<void>;
}

export async function startInbox(): Promise<Inbox> {
  const smtpPort = await freePort();
  const webPort = await freePort();
  const maildev = new MailDev({
    smtp: smtpPort,
    web: webPort,
    ip: '127.0.0.1',
    webIp: '127.0.0.1',
    silent: true,
  });
  await maildev.start();
  const all = async () =>
    (await (await fetch(`http://127.0.0.1:${webPort}/api/email`)).json()) as InboxMail[];
  const seen = new Set<string>();
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    all,
    async waitFor(to, subject) {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const mails = (await all()) as (InboxMail & { id: string })[];
        const mail = mails.find(
          (m) =>
            !seen.has(m.id) && m.to.some((r) => r.address === to) && (!subject || subject.test(m.subject)),
        );
        if (mail) {
          seen.add(mail.id);
          return mail;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no mail to ${to} arrived in MailDev`);
    },
    stop: () => maildev.stop(),
  };
}

/** What the ALTCHA widget sends back for a solved challenge, before base64 encoding. */
export interface WidgetPayload {
  algorithm: string;
  challenge: string;
  number: number;
  salt: string;
  signature: string;
  took: number;
}

/** Encodes a payload the way the widget does (base64 of its JSON). */
export const encodeCaptcha = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

/** Solves a challenge as the widget does in the browser. */
export async function solveChallengeAsWidget(challenge: Record<string, unknown>): Promise<WidgetPayload> {
  const {
    algorithm,
    challenge: hash,
    salt,
    signature,
    maxnumber,
  } = challenge as {
    algorithm: string;
    challenge: string;
    salt: string;
    signature: string;
    maxnumber: number;
  };
  const solution = await solveChallenge(hash, salt, algorithm, maxnumber).promise;
  if (!solution) throw new Error('challenge not solved');
  return { algorithm, challenge: hash, number: solution.number, salt, signature, took: solution.took };
}

/** A solved challenge, encoded, ready to send as captchaValue. */
export const solveCaptcha = async (challenge: Record<string, unknown>) =>
  encodeCaptcha(await solveChallengeAsWidget(challenge));

/** The first link in a mail's text that contains `path`. */
export function linkIn(mail: InboxMail, path: string): string {
  const link = mail.text.match(new RegExp(`https?://\\S*${path}\\S*`))?.[0];
  if (!link) throw new Error(`no ${path} link in: ${mail.text}`);
  return link;
}
