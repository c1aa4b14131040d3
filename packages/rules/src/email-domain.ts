// The "Verified employer" rule (ADR 0031): an organization's email domains (the ones a contributor lists,
// checked here with one message for the browser's form and the server), the domains that count for it (its
// website's host and the listed ones), and whether a member's confirmed account email is at one of them.
//
// A subdomain counts: jane@sen.ca.gov matches an organization listing ca.gov or sen.ca.gov. So a broad parent
// domain (ca.gov) verifies everyone under it for that organization; listing one is the contributor's choice.
// Public webmail domains never count, listed or not: anyone can have an address there.

export const EMAIL_DOMAIN_LIMITS = { count: 10, length: 253 } as const;

/** The badge's words, the same on the profile page and the directory's card. */
export const VERIFIED_EMPLOYER = {
  label: 'Verified employer',
  description: 'Their account email is at a domain of their current organization',
} as const;

export const EMAIL_DOMAIN_LABEL = 'Email Domains';

export const EMAIL_DOMAIN_MESSAGES = {
  tooMany: `${EMAIL_DOMAIN_LABEL}: list at most ${EMAIL_DOMAIN_LIMITS.count} domains.`,
  invalid: (domain: string) =>
    `${EMAIL_DOMAIN_LABEL}: "${domain}" is not a domain. Enter host names only, like agency.ca.gov (no https://, no @, no path).`,
  webmail: (domain: string) =>
    `${EMAIL_DOMAIN_LABEL}: "${domain}" is a public email service; anyone can have an address there.`,
} as const;

/** Email services open to anyone: an address there says nothing about an employer. */
export const PUBLIC_WEBMAIL_DOMAINS: ReadonlySet<string> = new Set([
  'aol.com',
  'fastmail.com',
  'gmail.com',
  'gmx.com',
  'googlemail.com',
  'hey.com',
  'hotmail.com',
  'icloud.com',
  'live.com',
  'mac.com',
  'mail.com',
  'me.com',
  'msn.com',
  'outlook.com',
  'pm.me',
  'proton.me',
  'protonmail.com',
  'yahoo.com',
  'yandex.com',
  'zoho.com',
]);

/** One DNS label: letters, digits and inner hyphens, at most 63 characters. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Lower case, no trailing dot, no leading "www.": the form every comparison uses. */
export function normalizeDomain(domain: string): string {
  return domain
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^www\./, '');
}

/** A host name of two labels or more, each a valid label, the last not all digits (not an IP address). */
export function isDomainName(domain: string): boolean {
  if (domain.length === 0 || domain.length > EMAIL_DOMAIN_LIMITS.length) return false;
  const labels = domain.split('.');
  return (
    labels.length >= 2 && labels.every((label) => LABEL.test(label)) && !/^\d+$/.test(labels.at(-1) ?? '')
  );
}

/** A public email service or an address under one. */
export const isWebmail = (domain: string) =>
  PUBLIC_WEBMAIL_DOMAINS.has(domain) ||
  [...PUBLIC_WEBMAIL_DOMAINS].some((mail) => domain.endsWith(`.${mail}`));

/**
 * The listed domains as stored (normalized, duplicates dropped, in the order given), or the first problem's
 * message: more than the limit, something that is not a host name, a public email service.
 */
export function cleanEmailDomains(
  domains: readonly string[],
): { domains: string[]; problem?: undefined } | { problem: string } {
  const cleaned: string[] = [];
  for (const entry of domains) {
    if (entry.trim() === '') continue;
    const domain = normalizeDomain(entry);
    if (!isDomainName(domain)) return { problem: EMAIL_DOMAIN_MESSAGES.invalid(entry.trim()) };
    if (isWebmail(domain)) return { problem: EMAIL_DOMAIN_MESSAGES.webmail(domain) };
    if (!cleaned.includes(domain)) cleaned.push(domain);
  }
  if (cleaned.length > EMAIL_DOMAIN_LIMITS.count) return { problem: EMAIL_DOMAIN_MESSAGES.tooMany };
  return { domains: cleaned };
}

/** What a form's text box holds (one per line, or separated by commas or spaces) as a list. */
export function splitEmailDomains(text: string): string[] {
  return text.split(/[\s,;]+/).filter((part) => part !== '');
}

/** The host of a website address, normalized; null when it has none. */
export function websiteDomain(website: string | null | undefined): string | null {
  if (!website) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(website) ? website : `https://${website}`);
    const host = normalizeDomain(url.hostname);
    return isDomainName(host) ? host : null;
  } catch {
    return null;
  }
}

/** The domain of an email address, normalized; null when it has none. */
export function emailDomainOf(email: string | null | undefined): string | null {
  const at = email?.lastIndexOf('@') ?? -1;
  if (!email || at < 0) return null;
  const domain = normalizeDomain(email.slice(at + 1));
  return isDomainName(domain) ? domain : null;
}

/**
 * Whether an email domain is at one of an organization's domains: equal to one, or a subdomain of one. Never a
 * public webmail domain, on either side.
 */
export function emailDomainMatches(
  emailDomain: string | null,
  organizationDomains: readonly string[],
): boolean {
  if (!emailDomain) return false;
  const domain = normalizeDomain(emailDomain);
  if (!isDomainName(domain) || isWebmail(domain)) return false;
  return organizationDomains.some((listed) => {
    const candidate = normalizeDomain(listed);
    if (!isDomainName(candidate) || isWebmail(candidate)) return false;
    return domain === candidate || domain.endsWith(`.${candidate}`);
  });
}
