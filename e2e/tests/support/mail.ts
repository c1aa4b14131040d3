// Test helper: reads the mails the product sent from MailDev's REST API (GET /api/email filtered by
// recipient, newest last) and pulls the product's links out of them.
import { type APIRequestContext, expect } from '@playwright/test';

/** MailDev's web port (MAILDEV_WEB_PORT); E2E_MAILDEV_URL when the product runs elsewhere. */
export const MAILDEV_URL = process.env.E2E_MAILDEV_URL ?? 'http://localhost:1080';

export interface Mail {
  id: string;
  subject: string;
  text?: string;
  html?: string;
  time: string;
  to: { address: string }[];
}

/** Waits for a mail to `to` whose subject matches, and answers the newest such mail. */
export async function waitForMail(request: APIRequestContext, to: string, subject: RegExp): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`${MAILDEV_URL}/api/email`, {
          params: { 'to.address': to.toLowerCase() },
        });
        if (!response.ok()) return undefined;
        const mails = ((await response.json()) as Mail[]).filter((mail) => subject.test(mail.subject));
        found = mails.sort((a, b) => Date.parse(a.time) - Date.parse(b.time)).at(-1);
        return found?.id;
      },
      { message: `a mail to ${to} with subject ${subject}`, timeout: 30_000 },
    )
    .toBeTruthy();
  // The single-mail call gives the full body.
  const response = await request.get(`${MAILDEV_URL}/api/email/${found?.id}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as Mail;
}

/** The path of the product link in a mail, e.g. '/confirm-email/<token>'. */
export function linkPath(mail: Mail, prefix: '/confirm-email/' | '/reset-password/'): string {
  const body = `${mail.text ?? ''}\n${mail.html ?? ''}`;
  const match = body.match(new RegExp(`https?://[^\\s"'<>]+(${prefix}[^\\s"'<>]+)`));
  expect(match, `a ${prefix} link in "${mail.subject}"`).toBeTruthy();
  return match?.[1] ?? '';
}
