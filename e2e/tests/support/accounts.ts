// Test helper: fresh eligible addresses, the demo accounts, and registration through the REST API (solving
// the ALTCHA proof of work here, as the widget does in the browser) for tests that need an account but are
// not about the register dialog.
import { createHash, randomBytes } from 'node:crypto';
import { type APIRequestContext, expect } from '@playwright/test';
import { linkPath, waitForMail } from './mail.ts';

export const DEMO = {
  concierge: { email: 'concierge@demo.ca.gov', password: 'Concierge#2024' },
  member: { email: 'member@demo.ca.gov', password: 'Member#2024x' },
  newbie: { email: 'newbie@demo.ca.gov', password: 'Newbie#2024x' },
  admin: { email: 'admin@demo.ca.gov', password: 'Admin#2024x' },
} as const;

/** A new address on a random .ca.gov domain: eligible, and never used before. */
export function freshEmail(): string {
  const id = randomBytes(4).toString('hex');
  return `e2e-${id}@agency${randomBytes(3).toString('hex')}.ca.gov`;
}

interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

/** A solved captcha payload: GET /auth/captcha, then the number whose SHA-256 with the salt is the challenge. */
export async function solvedCaptcha(request: APIRequestContext): Promise<string> {
  const response = await request.get('/auth/captcha');
  expect(response.ok()).toBe(true);
  const challenge = (await response.json()) as Challenge;
  const started = Date.now();
  for (let number = 0; number <= challenge.maxnumber; number++) {
    const hash = createHash('sha256').update(`${challenge.salt}${number}`).digest('hex');
    if (hash === challenge.challenge) {
      const payload = { ...challenge, number, took: Date.now() - started };
      return Buffer.from(JSON.stringify(payload)).toString('base64');
    }
  }
  throw new Error('captcha challenge has no solution');
}

export interface Account {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/**
 * Registers a new account through the API; with `confirm`, also follows the mailed confirmation link. The
 * account is Eva Tester at a fresh address unless `person` names someone else.
 */
export async function registerAccount(
  request: APIRequestContext,
  confirm: boolean,
  person: { firstName: string; lastName: string; email?: string } = { firstName: 'Eva', lastName: 'Tester' },
): Promise<Account> {
  const account = {
    email: person.email ?? freshEmail(),
    password: 'Rotunda#E2e2024',
    firstName: person.firstName,
    lastName: person.lastName,
  };
  const response = await request.post('/auth/register', {
    data: {
      first_name: account.firstName,
      last_name: account.lastName,
      email: account.email,
      password: account.password,
      captchaValue: await solvedCaptcha(request),
    },
  });
  expect(response.status()).toBe(201);
  if (confirm) {
    const mail = await waitForMail(request, account.email, /Confirm your email/);
    const token = linkPath(mail, '/confirm-email/').split('/').pop();
    const confirmed = await request.post('/auth/confirm-registration', { data: { token } });
    expect(confirmed.ok()).toBe(true);
  }
  return account;
}
