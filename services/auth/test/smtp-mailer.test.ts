// The SMTP mailer delivers to a real MailDev (the embedded default's inbox) and fails loudly when it is down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../src/adapters/smtp-mailer.ts';
import { freePort, type Inbox, startInbox } from './support.ts';

let inbox: Inbox;

beforeAll(async () => {
  inbox = await startInbox();
}, 30_000);

afterAll(async () => {
  await inbox?.stop();
});

describe('createSmtpMailer', () => {
  it('delivers subject, recipient, text and html to MailDev', async () => {
    const mailer = createSmtpMailer({
      url: inbox.smtpUrl,
      from: 'Rotunda <no-reply@rotunda.test>',
    });
    await mailer.send({
      to: 'ada@agency.ca.gov',
      subject: 'Confirm your Rotunda account',
      text: 'Hello Ada,\nopen https://rotunda.test/confirm-email/abc123 to confirm.',
      html: '<p>Hello Ada,</p><p><a href="https://rotunda.test/confirm-email/abc123">Confirm</a></p>',
    });

    const mail = await inbox.waitFor('ada@agency.ca.gov');
    expect(mail.subject).toBe('Confirm your Rotunda account');
    expect(mail.to).toEqual([expect.objectContaining({ address: 'ada@agency.ca.gov' })]);
    expect(mail.from).toEqual([{ address: 'no-reply@rotunda.test', name: 'Rotunda' }]);
    expect(mail.text).toContain('https://rotunda.test/confirm-email/abc123');
    expect(mail.html).toContain('<a href="https://rotunda.test/confirm-email/abc123">Confirm</a>');
  });

  it('rejects with an error naming host and port when the server is down', async () => {
    const downPort = await freePort();
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${downPort}`, from: 'no-reply@rotunda.test' });
    const sending = mailer.send({ to: 'ada@agency.ca.gov', subject: 's', text: 't', html: '<p>t</p>' });
    await expect(sending).rejects.toThrow(`SMTP server 127.0.0.1:${downPort} is unreachable`);
  });

  it('keeps the password of the SMTP url out of its errors', async () => {
    const downPort = await freePort();
    const mailer = createSmtpMailer({
      url: `smtp://mailer:s3cret-pass@127.0.0.1:${downPort}`,
      from: 'no-reply@rotunda.test',
    });
    const error = await mailer.send({ to: 'a@b.ca.gov', subject: 's', text: 't', html: 't' }).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String(error.message)).toContain(`127.0.0.1:${downPort}`);
    expect(String(error.message)).not.toContain('s3cret-pass');
  });

  it('refuses a recipient that is not one plain address', async () => {
    const mailer = createSmtpMailer({ url: inbox.smtpUrl, from: 'no-reply@rotunda.test' });
    for (const to of ['a@b.gov, c@d.com', 'Name <a@b.gov>', 'a@b.gov\r\nBcc: c@d.com', 'nobody', '']) {
      await expect(mailer.send({ to, subject: 's', text: 't', html: 't' })).rejects.toThrow(
        /single plain address/,
      );
    }
  });

  it('refuses a url that is not smtp:// or smtps://', () => {
    expect(() => createSmtpMailer({ url: 'http://127.0.0.1:25', from: 'x@y.z' })).toThrow(/smtp:\/\//);
    expect(() => createSmtpMailer({ url: 'localhost:25', from: 'x@y.z' })).toThrow(/smtp/);
  });
});
