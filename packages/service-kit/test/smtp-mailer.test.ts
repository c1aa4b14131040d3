// The SMTP mailer every service sends with delivers to a real MailDev (the embedded default's inbox), with extra
// headers and over a pool of kept-open connections, and fails loudly, without the relay's password, when it cannot.
import { MailDev } from 'maildev';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../src/index.ts';
import { freePort } from '../src/testing/index.ts';

interface InboxMail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: { address: string; name: string }[];
  from: { address: string; name: string }[];
}

let maildev: MailDev;
let smtpUrl: string;
let webPort: number;

/** Every mail MailDev received so far (its REST API). */
const inbox = async () =>
  (await (await fetch(`http://127.0.0.1:${webPort}/api/email`)).json()) as InboxMail[];

async function mailTo(address: string): Promise<InboxMail> {
  const find = async () => (await inbox()).find((mail) => mail.to.some((to) => to.address === address));
  await expect.poll(find, { timeout: 10_000 }).toBeDefined();
  return (await find()) as InboxMail;
}

/** The mail's header as sent (MailDev's parsed headers leave out the List-* ones). */
async function headerOf(mail: InboxMail, name: string): Promise<string | undefined> {
  const source = await (await fetch(`http://127.0.0.1:${webPort}/api/email/${mail.id}/source`)).text();
  const head = (source.split(/\r?\n\r?\n/)[0] ?? '').replace(/\r?\n(?=[ \t])/g, '');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

beforeAll(async () => {
  const smtpPort = await freePort();
  webPort = await freePort();
  maildev = new MailDev({ smtp: smtpPort, web: webPort, ip: '127.0.0.1', webIp: '127.0.0.1', silent: true });
  await maildev.start();
  smtpUrl = `smtp://127.0.0.1:${smtpPort}`;
}, 30_000);

afterAll(async () => {
  await maildev?.stop();
});

describe('createSmtpMailer', () => {
  it('delivers subject, recipient, sender, text and html to MailDev', async () => {
    const mailer = createSmtpMailer({ url: smtpUrl, from: 'Rotunda <no-reply@rotunda.test>' });
    await mailer.send({
      to: 'ada@agency.ca.gov',
      subject: 'Confirm your Rotunda account',
      text: 'Hello Ada,\nopen https://rotunda.test/confirm-email/abc123 to confirm.',
      html: '<p>Hello Ada,</p><p><a href="https://rotunda.test/confirm-email/abc123">Confirm</a></p>',
    });

    const mail = await mailTo('ada@agency.ca.gov');
    expect(mail.subject).toBe('Confirm your Rotunda account');
    expect(mail.to).toEqual([expect.objectContaining({ address: 'ada@agency.ca.gov' })]);
    expect(mail.from).toEqual([{ address: 'no-reply@rotunda.test', name: 'Rotunda' }]);
    expect(mail.text).toContain('https://rotunda.test/confirm-email/abc123');
    expect(mail.html).toContain('<a href="https://rotunda.test/confirm-email/abc123">Confirm</a>');
    mailer.close();
  });

  it('sends many mails over a pool, each with its own extra headers, until closed', async () => {
    const mailer = createSmtpMailer({
      url: smtpUrl,
      from: 'no-reply@rotunda.test',
      pool: { maxConnections: 2 },
    });
    const names = ['grace', 'alan', 'barbara'];
    await Promise.all(
      names.map((name) =>
        mailer.send({
          to: `${name}@agency.ca.gov`,
          subject: 'Your week on Rotunda',
          text: 't',
          html: '<p>t</p>',
          headers: {
            'List-Unsubscribe': `<https://rotunda.test/unsubscribe/${name}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        }),
      ),
    );
    mailer.close();
    for (const name of names) {
      const mail = await mailTo(`${name}@agency.ca.gov`);
      expect(await headerOf(mail, 'List-Unsubscribe')).toBe(`<https://rotunda.test/unsubscribe/${name}>`);
      expect(await headerOf(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    }
  });

  it('rejects with an error naming host and port when the server is down, pooled or not', async () => {
    const downPort = await freePort();
    for (const pool of [undefined, { maxConnections: 2 }]) {
      const mailer = createSmtpMailer({
        url: `smtp://127.0.0.1:${downPort}`,
        from: 'no-reply@rotunda.test',
        pool,
      });
      const sending = mailer.send({ to: 'ada@agency.ca.gov', subject: 's', text: 't', html: '<p>t</p>' });
      await expect(sending).rejects.toThrow(`SMTP server 127.0.0.1:${downPort} is unreachable`);
      mailer.close();
    }
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

  it('refuses a recipient that is not one plain address, and sends nothing', async () => {
    const mailer = createSmtpMailer({ url: smtpUrl, from: 'no-reply@rotunda.test' });
    const before = (await inbox()).length;
    for (const to of ['a@b.gov, c@d.com', 'Name <a@b.gov>', 'a@b.gov\r\nBcc: c@d.com', 'nobody', '']) {
      await expect(mailer.send({ to, subject: 's', text: 't', html: 't' })).rejects.toThrow(
        /single plain address/,
      );
    }
    expect((await inbox()).length).toBe(before);
  });

  it('refuses a url that is not smtp:// or smtps://', () => {
    expect(() => createSmtpMailer({ url: 'http://127.0.0.1:25', from: 'x@y.z' })).toThrow(/smtp:\/\//);
    expect(() => createSmtpMailer({ url: 'localhost:25', from: 'x@y.z' })).toThrow(/smtp/);
  });
});
