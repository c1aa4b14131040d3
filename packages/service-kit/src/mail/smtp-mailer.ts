// Mail over SMTP with nodemailer, as every service sends it: MailDev in the embedded default, any SMTP relay in
// production. One plain recipient per mail, timeouts in seconds rather than nodemailer's minutes, errors that name
// the server (never its password), optionally a pool of kept-open connections and extra headers per mail.
import nodemailer from 'nodemailer';

export interface SmtpMailerOptions {
  /** `smtp://host:port` (or `smtps://`, with `user:pass@` when the relay wants a login). */
  url: string;
  /** The sender, e.g. `Rotunda <no-reply@rotunda.example>`. */
  from: string;
  /** Keep up to this many connections open between mails, for a sender of many mails in a row (digests). */
  pool?: { maxConnections: number };
}

export interface SmtpMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
}

export interface SmtpMailer {
  send(message: SmtpMessage): Promise<void>;
  /** Closes the pooled connections; a mailer without a pool holds none between mails. */
  close(): void;
}

// Nodemailer waits up to 2 minutes for a connection by default; a caller waiting on a register or reset answer, or a
// digest run, should learn much sooner that the mail server is gone.
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

// Error codes nodemailer uses when it never got a usable SMTP session.
const UNREACHABLE = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED']);

// One plain address and nothing else: a recipient with commas, brackets or spaces could make nodemailer parse
// several addresses out of a single user-typed email and send someone's link to a stranger.
const SINGLE_ADDRESS = /^[^\s@,;:<>()[\]"\\]+@[^\s@,;:<>()[\]"\\]+$/;

export function createSmtpMailer(options: SmtpMailerOptions): SmtpMailer {
  const server = describeServer(options.url);
  const timeouts = {
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: GREETING_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
  };
  const transport = options.pool
    ? nodemailer.createTransport({
        url: options.url,
        pool: true,
        maxConnections: options.pool.maxConnections,
        ...timeouts,
      })
    : nodemailer.createTransport({ url: options.url, ...timeouts });

  return {
    async send(message) {
      if (!SINGLE_ADDRESS.test(message.to)) {
        throw new Error(`Refusing to send mail to ${JSON.stringify(message.to)}: not a single plain address`);
      }
      try {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          ...(message.headers ? { headers: message.headers } : {}),
        });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const reason = error instanceof Error ? error.message : String(error);
        // Names host and port only: the URL may carry the relay's password.
        const what =
          typeof code === 'string' && UNREACHABLE.has(code)
            ? `SMTP server ${server} is unreachable`
            : `SMTP server ${server} did not accept the mail`;
        throw new Error(`${what}: ${reason}`, { cause: error });
      }
    },
    close: () => transport.close(),
  };
}

/** `host:port` of an smtp:// or smtps:// URL, with nodemailer's default ports; throws on anything else. */
function describeServer(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('SMTP url is not a URL; expected smtp://host:port');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new Error(`SMTP url must start with smtp:// or smtps://, got ${parsed.protocol}//`);
  }
  if (!parsed.hostname) throw new Error('SMTP url has no host; expected smtp://host:port');
  const port = parsed.port || (parsed.protocol === 'smtps:' ? '465' : '587');
  return `${parsed.hostname}:${port}`;
}
