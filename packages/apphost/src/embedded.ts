// The embedded mail inbox (MailDev), the one-machine stand-in for an SMTP relay.
import { mkdirSync } from 'node:fs';
import { MailDev } from 'maildev';

export async function startMailInbox(options: {
  directory: string;
  webPort: number;
  smtpPort: number;
}): Promise<{ stop: () => Promise<void> }> {
  mkdirSync(options.directory, { recursive: true });
  const maildev = new MailDev({
    smtp: options.smtpPort,
    ip: '127.0.0.1',
    web: options.webPort,
    webIp: '127.0.0.1',
    mailDirectory: options.directory,
    silent: true,
  });
  await maildev.start();
  return { stop: () => maildev.stop() };
}
