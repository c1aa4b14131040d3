// The "Verified employer" badge (ADR 0031): a profile whose owner's confirmed account email is at a domain of
// one of their current jobs' organizations (its website's host, or a domain a contributor listed there). A
// subdomain counts and public webmail never does (`emailDomainMatches` in @rotunda/rules). The profile answer
// and the directory's card both ask here.
import { emailDomainMatches } from '@rotunda/rules';

/**
 * `ownerEmailDomain`: the domain of the owner's account email, null for a profile nobody owns;
 * `currentOrganizationDomains`: the domains that count of each current job's organization (ended jobs left out).
 */
export function isVerifiedEmployer(
  ownerEmailDomain: string | null,
  currentOrganizationDomains: readonly (readonly string[])[],
): boolean {
  return currentOrganizationDomains.some((domains) => emailDomainMatches(ownerEmailDomain, domains));
}
