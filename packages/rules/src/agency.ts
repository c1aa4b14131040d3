// Agency sign-in (docs/agency-sign-in.md, ADR 0044): the words and bounds the admin screen's agencies form,
// the gateway and the auth service share — the protocols an agency's identity provider may speak, the field
// limits, and the messages a registration or a brokered sign-in is refused with — and the check of an
// agency's email domains.
import { isDomainName, isWebmail, normalizeDomain } from './email-domain.ts';

/** OpenID Connect (registered by its discovery URL) or SAML 2.0 (by its metadata URL). */
export const AGENCY_PROTOCOLS = ['oidc', 'saml'] as const;
export type AgencyProtocol = (typeof AGENCY_PROTOCOLS)[number];

export const AGENCY_PROTOCOL_LABELS: Readonly<Record<AgencyProtocol, string>> = {
  oidc: 'OpenID Connect',
  saml: 'SAML 2.0',
};

export const AGENCY_LIMITS = {
  name: 100,
  domains: 20,
  url: 2000,
  clientId: 255,
  clientSecret: 1000,
} as const;

/** How long a started agency sign-in may take before it must be started again. */
export const AGENCY_SIGN_IN_MINUTES = 10;

export const AGENCY_MESSAGES = {
  nameRequired: 'Enter the agency’s name.',
  nameTooLong: `The agency’s name can be at most ${AGENCY_LIMITS.name} characters.`,
  unknownProtocol: 'Choose OpenID Connect or SAML 2.0.',
  domainsRequired: 'Enter at least one email domain, such as agency.ca.gov.',
  tooManyDomains: `List at most ${AGENCY_LIMITS.domains} email domains.`,
  badDomain: (domain: string) => `"${domain}" is not a domain. Enter host names only, like agency.ca.gov.`,
  domainTaken: (domain: string, agency: string) => `${domain} already signs in with ${agency}.`,
  badMetadataUrl: 'Enter the provider’s metadata address, starting with https://.',
  clientIdRequired: 'Enter the client ID the agency issued Rotunda.',
  clientSecretRequired: 'Enter the client secret the agency issued Rotunda.',
  clientTooLong: 'The client ID or secret is too long.',
  metadataUnreadable: (url: string) => `Keycloak could not read the provider's metadata at ${url}.`,
  needsKeycloak: 'Agency sign-in needs Keycloak.',
  unknownAgency: 'No agency has this alias.',
  noAgencyForEmail: 'No agency signs in this email’s domain. Sign in with your password.',
  signInExpired: 'This sign-in has expired or was already used. Start again from the sign-in dialog.',
  notLinked: 'Your agency did not confirm this account. Start again from the sign-in dialog.',
  emailOutsideAgency: (agency: string) =>
    `${agency} signed you in with an email outside its domains, so Rotunda cannot accept it. Ask your agency’s IT office to check your email address.`,
} as const;

/**
 * An agency's email domains as stored (lower-case, no '@', no duplicates, in the order given), or the first
 * problem's message: something that is not a host name (a public email service counts as none), none at all, or
 * more than the limit. The admin screen checks with it before sending, the auth service when it registers.
 */
export function cleanAgencyDomains(
  raw: readonly string[],
): { domains: string[]; problem?: undefined } | { problem: string } {
  const domains: string[] = [];
  for (const entry of raw) {
    if (entry.trim() === '') continue;
    const domain = normalizeDomain(entry.trim().replace(/^@/, ''));
    if (!isDomainName(domain) || isWebmail(domain))
      return { problem: AGENCY_MESSAGES.badDomain(entry.trim()) };
    if (!domains.includes(domain)) domains.push(domain);
  }
  if (domains.length === 0) return { problem: AGENCY_MESSAGES.domainsRequired };
  if (domains.length > AGENCY_LIMITS.domains) return { problem: AGENCY_MESSAGES.tooManyDomains };
  return { domains };
}
