// Access administration rules shared by the admin screen, the gateway and the auth service
// (docs/product.md#access-administration): the lists of who may register, the roles an administrator grants,
// their labels, the log's page bounds, the messages a change is refused with, and how a value is checked.
import { isDomainName, normalizeDomain } from './email-domain.ts';
import { emailDomain, normalizeEmail } from './email-eligibility.ts';

/** The lists that decide who may register: whole domains, single work emails, beta testers' emails. */
export const ACCESS_LISTS = ['domains', 'emails', 'beta_emails'] as const;
export type AccessList = (typeof ACCESS_LISTS)[number];

export const ACCESS_LIST_LABELS: Readonly<Record<AccessList, string>> = {
  domains: 'Approved domains',
  emails: 'Approved emails',
  beta_emails: 'Beta testers',
};

/** The roles an administrator grants and takes away. */
export const ADMIN_ROLES = ['contributor', 'admin'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

export const ADMIN_ROLE_LABELS: Readonly<Record<AdminRole, string>> = {
  contributor: 'Concierge contributor',
  admin: 'Administrator',
};

/** The realm role of the people who administer access. */
export const ADMIN_ROLE = 'admin';

/** The admin log's entries per answer: by default, and at most. */
export const ADMIN_LOG_PAGE = { default: 50, max: 100 } as const;

export const ACCESS_MESSAGES = {
  badDomain: 'Enter a domain such as agency.ca.gov.',
  badEmail: 'Enter an email address such as name@agency.ca.gov.',
  unknownAccount: 'No account has this email.',
  ownAdmin: 'You cannot take the administrator role from yourself.',
} as const;

/**
 * The value as it is stored, or the message refusing it: a domain (an '@' before it allowed) is normalized and
 * must be a host name; the two email lists take one plausible address at a valid domain.
 */
export function checkAccessValue(list: AccessList, raw: string): { value: string } | { problem: string } {
  if (list === 'domains') {
    const value = normalizeDomain(raw.trim().replace(/^@/, ''));
    return isDomainName(value) ? { value } : { problem: ACCESS_MESSAGES.badDomain };
  }
  const value = normalizeEmail(raw);
  const domain = emailDomain(value);
  return domain !== null && isDomainName(domain) ? { value } : { problem: ACCESS_MESSAGES.badEmail };
}
