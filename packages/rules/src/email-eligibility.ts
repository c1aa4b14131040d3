// Who may register: beta emails, approved work emails, .ca.gov addresses and approved domains.

export interface EligibilityLists {
  betaEmails: readonly string[];
  approvedEmails: readonly string[];
  approvedDomains: readonly string[];
}

/** Trimmed and lower-cased: how emails are compared everywhere (people type mixed case and stray spaces). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The lower-cased domain of a plausible address, or null. Needs exactly one '@', a non-empty local part
 * and a domain of non-empty dot-separated labels without whitespace, so that '@ca.gov', 'x@.ca.gov' or
 * 'x@ca.gov.' do not pass the domain rules.
 */
export function emailDomain(email: string): string | null {
  const parts = normalizeEmail(email).split('@');
  if (parts.length !== 2) return null;
  const [local, domain] = parts as [string, string];
  if (local === '' || /\s/.test(local) || /\s/.test(domain)) return null;
  if (domain.split('.').some((label) => label === '')) return null;
  return domain;
}

/**
 * The as-built pattern was '@...ca.gov'. We read it as "the domain is ca.gov or a subdomain of ca.gov",
 * matched on a label boundary: 'x@dof.ca.gov' and 'x@ca.gov' are eligible, but 'x@notca.gov' (a different
 * .gov domain) and 'x@notca.gov.evil.com' (not ending in ca.gov) are not. A plain suffix match would let
 * any '*ca.gov' domain in.
 */
export function isCaGovDomain(domain: string): boolean {
  const d = domain.toLowerCase();
  return d === 'ca.gov' || d.endsWith('.ca.gov');
}

/**
 * Eligible if the email equals a beta email or an approved work email (both case-insensitive), has a
 * .ca.gov domain, or its domain equals an approved domain exactly (subdomains are not included; a
 * leading '@' in a stored domain is tolerated).
 */
export function isEmailEligible(email: string, lists: EligibilityLists): boolean {
  const normalized = normalizeEmail(email);
  if (normalized === '') return false;
  if (lists.betaEmails.some((e) => normalizeEmail(e) === normalized)) return true;
  if (lists.approvedEmails.some((e) => normalizeEmail(e) === normalized)) return true;
  const domain = emailDomain(normalized);
  if (domain === null) return false;
  if (isCaGovDomain(domain)) return true;
  return lists.approvedDomains.some((d) => d.trim().toLowerCase().replace(/^@/, '') === domain);
}
