// Which of an organization's domains count for the "Verified employer" badge (ADR 0037): the domains a
// contributor lists, and its website's host only once a contributor has set or confirmed the website, never a
// domain shared by unrelated employers. Servers only: the Public Suffix List it reads stays out of the browser's
// bundles (the forms use email-domain.ts).
//
// Shared means either a public suffix (co.uk, github.io: anyone registers below it; the Public Suffix List
// through tldts, its private section included) or a state government's umbrella domain (ca.gov, state.ca.us):
// the Public Suffix List sees ca.gov as one registrable domain, yet hundreds of separate agencies have their mail
// below it, so a website at www.ca.gov says nothing about whose employee jane@oig.ca.gov is. A host below an
// umbrella (oig.ca.gov) is the agency's own and counts.
import { getPublicSuffix } from 'tldts';
import { isDomainName, isWebmail, normalizeDomain, websiteDomain } from './email-domain.ts';

/** The states', the District's and the territories' postal codes: each owns <code>.gov and state.<code>.us. */
const STATE_CODES = (
  'al ak az ar ca co ct de fl ga hi id il in ia ks ky la me md ma mi mn ms mo mt ne nv nh nj nm ny nc ' +
  'nd oh ok or pa ri sc sd tn tx ut vt va wa wv wi wy dc pr gu vi as mp'
).split(' ');

/** States whose umbrella .gov domain is their name (texas.gov, mass.gov) rather than, or besides, their code. */
const STATE_NAMES = (
  'alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii ' +
  'idaho illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts mass michigan ' +
  'minnesota mississippi missouri montana nebraska nevada newhampshire newjersey newmexico newyork ' +
  'northcarolina northdakota ohio oklahoma oregon pennsylvania rhodeisland southcarolina southdakota ' +
  'tennessee texas utah vermont virginia washington westvirginia wisconsin wyoming wyo'
).split(' ');

/** State governments' umbrella domains: many unrelated employers have their mail below each. */
export const SHARED_GOVERNMENT_DOMAINS: ReadonlySet<string> = new Set([
  ...STATE_CODES.flatMap((code) => [`${code}.gov`, `state.${code}.us`]),
  ...STATE_NAMES.map((name) => `${name}.gov`),
]);

/** A public suffix itself (co.uk, github.io), by the Public Suffix List, its private section included. */
export function isPublicSuffix(domain: string): boolean {
  const host = normalizeDomain(domain);
  return getPublicSuffix(host, { allowPrivateDomains: true }) === host;
}

/** A domain unrelated employers share: a public suffix, or a state government's umbrella domain. */
export function isSharedDomain(domain: string): boolean {
  const host = normalizeDomain(domain);
  return isPublicSuffix(host) || SHARED_GOVERNMENT_DOMAINS.has(host);
}

export interface EmployerDomainSources {
  /** The organization's website, or null unless a contributor set or confirmed it. */
  confirmedWebsite: string | null | undefined;
  /** The domains a contributor listed. */
  listed: readonly string[];
}

/**
 * The domains that count for an organization, normalized, once each: the confirmed website's host unless shared,
 * and the listed domains unless a public suffix (a contributor may list a state's umbrella on purpose, ADR 0031;
 * the history records who did). Never public webmail.
 */
export function organizationEmailDomains({ confirmedWebsite, listed }: EmployerDomainSources): string[] {
  const website = websiteDomain(confirmedWebsite);
  const domains = [
    ...(website && !isSharedDomain(website) ? [website] : []),
    ...listed.map(normalizeDomain).filter((domain) => isDomainName(domain) && !isPublicSuffix(domain)),
  ].filter((domain) => !isWebmail(domain));
  return [...new Set(domains)];
}
