// The auth mails name the product, the access email and the link's lifetime, and escape what users typed.
import { describe, expect, it } from 'vitest';
import {
  alreadyRegisteredMail,
  confirmationMail,
  escapeHtml,
  passwordResetMail,
} from '../src/domain/mail-templates.ts';

const common = { productName: 'Rotunda', accessEmail: 'access@rotunda.example' };
const confirmLink = 'http://localhost:8080/confirm-email/tok_abc123?x=1&y=2';
const resetLink = 'http://localhost:8080/reset-password/tok_def456';
const loginUrl = 'http://localhost:8080/?login=1';
const resetUrl = 'http://localhost:8080/?forgot=1';

const mails = {
  confirmation: confirmationMail({ ...common, firstName: 'Ada', link: confirmLink }),
  reset: passwordResetMail({ ...common, firstName: 'Ada', link: resetLink, expiresInMinutes: 60 }),
  alreadyRegistered: alreadyRegisteredMail({ ...common, firstName: 'Ada', loginUrl, resetUrl }),
};

describe('mail templates', () => {
  it('have subjects that name the product', () => {
    expect(mails.confirmation.subject).toBe('Confirm your email for Rotunda');
    expect(mails.reset.subject).toBe('Reset your Rotunda password');
    expect(mails.alreadyRegistered.subject).toBe('You already have a Rotunda account');
  });

  it.each(Object.entries(mails))(
    '%s greets by name and names product and access email in both parts',
    (_, mail) => {
      for (const part of [mail.text, mail.html]) {
        expect(part).toContain('Hello Ada,');
        expect(part).toContain('Rotunda');
        expect(part).toContain('Questions? Write to ');
        expect(part).toContain('access@rotunda.example');
      }
      expect(mail.text).toContain('Questions? Write to access@rotunda.example.');
      expect(mail.html).toContain('href="mailto:access@rotunda.example"');
    },
  );

  it('confirmation carries the link in both parts, as a button and raw, valid 24 hours', () => {
    const { text, html } = mails.confirmation;
    expect(text).toContain(confirmLink);
    const href = `href="${escapeHtml(confirmLink)}"`;
    expect(html).toContain(href);
    // Button plus the written-out link.
    expect(html.split(href)).toHaveLength(3);
    expect(html).toContain('>Confirm my email</a>');
    expect(html).toContain(`>${escapeHtml(confirmLink)}</a>`);
    expect(text).toContain('valid for 24 hours');
    expect(html).toContain('valid for 24 hours');
    const other = confirmationMail({ ...common, firstName: 'Ada', link: confirmLink, validHours: 48 });
    expect(other.text).toContain('valid for 48 hours');
    expect(other.html).toContain('valid for 48 hours');
  });

  it('reset carries the link in both parts and says how many minutes it lasts', () => {
    const { text, html } = mails.reset;
    expect(text).toContain(resetLink);
    expect(html).toContain(`href="${resetLink}"`);
    expect(html).toContain('>Choose a new password</a>');
    expect(text).toContain('valid for 60 minutes');
    expect(html).toContain('valid for 60 minutes');
    const short = passwordResetMail({ ...common, firstName: 'Ada', link: resetLink, expiresInMinutes: 1 });
    expect(short.text).toContain('valid for 1 minute ');
  });

  it('already-registered offers login and reset and says nothing new was created', () => {
    const { text, html } = mails.alreadyRegistered;
    for (const url of [loginUrl, resetUrl]) {
      expect(text).toContain(url);
      expect(html).toContain(`href="${escapeHtml(url)}"`);
    }
    expect(html).toContain('>Log in</a>');
    expect(text).toContain('already has an account');
    expect(html).toContain('already has an account');
  });

  it('escapes a hostile first name in the HTML and keeps it literal in the text', () => {
    const firstName = '<script>alert("x")</script>';
    const built = [
      confirmationMail({ ...common, firstName, link: confirmLink }),
      passwordResetMail({ ...common, firstName, link: resetLink, expiresInMinutes: 30 }),
      alreadyRegisteredMail({ ...common, firstName, loginUrl, resetUrl }),
    ];
    for (const mail of built) {
      expect(mail.html).not.toContain('<script');
      expect(mail.html).toContain('Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;,');
      expect(mail.text).toContain(`Hello ${firstName},`);
    }
  });

  it('escapes product name and access email as well', () => {
    const mail = confirmationMail({
      firstName: 'Ada',
      link: confirmLink,
      productName: 'R&D <b>',
      accessEmail: 'a"b@x.example',
    });
    expect(mail.html).toContain('R&amp;D &lt;b&gt;');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('href="mailto:a&quot;b@x.example"');
  });

  it('keeps a typed name on one line so it cannot add paragraphs to the text part', () => {
    const mail = confirmationMail({
      ...common,
      firstName: 'Ada\n\nClick http://evil.example\r\n',
      link: confirmLink,
    });
    expect(mail.text.split('\n')[0]).toBe('Hello Ada Click http://evil.example,');
    const long = confirmationMail({ ...common, firstName: 'x'.repeat(500), link: confirmLink });
    expect(long.text.split('\n')[0]?.length).toBeLessThan(120);
  });

  it('greets without a name when there is none', () => {
    expect(confirmationMail({ ...common, firstName: '  ', link: confirmLink }).text).toMatch(/^Hello,\n/);
  });

  it('is plain, self-contained HTML: no images, scripts or external styles', () => {
    for (const mail of Object.values(mails)) {
      expect(mail.html).toMatch(/^<!doctype html>\n<html lang="en">/);
      expect(mail.html).not.toMatch(/<img|<script|<link|<style|src=/i);
    }
  });

  it('refuses links that are not plain http(s) URLs', () => {
    for (const link of ['javascript:alert(1)', 'not a url', 'http://x.example/a\nb']) {
      expect(() => confirmationMail({ ...common, firstName: 'Ada', link })).toThrow(/http\(s\)/);
    }
    expect(() =>
      alreadyRegisteredMail({ ...common, firstName: 'Ada', loginUrl, resetUrl: 'ftp://x' }),
    ).toThrow();
    expect(() =>
      passwordResetMail({ ...common, firstName: 'Ada', link: resetLink, expiresInMinutes: 0 }),
    ).toThrow(/minutes/);
  });
});
