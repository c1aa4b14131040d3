// The Mailer port over SMTP with nodemailer, as the auth service sends its mails (MailDev in the embedded default,
// any SMTP relay in production), with the headers notification mails carry (List-Unsubscribe and its one-click
// POST).
import nodemailer from 'nodemailer';
import type { Mailer } from '../domain/ports.ts';

// A digest run should learn soon that the mail server is gone, not after nodemailer's 2 minutes.
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

// One plain address and nothing else: an address with commas or brackets could make nodemailer mail others.
const SINGLE_ADDRESS = /^[^\s@,;:<>()[\]"\\]+@[^\s@,;:<>()[\]"\\]+$/;

export function createSmtpMailer(options: { url: string; from: string }): Mailer & { close: () => void } {
  const transport = nodemailer.createTransport({
    url: options.url,
    // Digests go out one after another: one connection kept open carries them all.
    pool: true,
    maxConnections: 2,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: GREETING_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
  });
  return {
    async send(message) {
      if (!SINGLE_ADDRESS.test(message.to))
        throw new Error(`Refusing to send mail to ${JSON.stringify(message.to)}: not a single plain address`);
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: message.headers,
      });
    },
    close: () => transport.close(),
  };
}
