// The profile screens' rules from docs/product.md#2-screens-and-routes, #4-states-and-transitions,
// #5-validation-rules, #6-roles-and-permissions and #9-business-constants-and-limits: who may edit a profile,
// the bio's 550-character preview, job dates as 'Jan 2020 – present', the five random colleagues, issue
// suggestions and duplicates, and where the lobbying disclosure and bill sites are. The shared message format
// is @rotunda/rules'.
import { shownFirstName } from '@rotunda/rules';
import type { AuthUser } from '@rotunda/session';
import { type Colleague, shuffle } from '@rotunda/ui';
import type { IssueArea, Job, Profile } from './api';

/** docs/product.md#5-validation-rules Bio step: the words the service refuses with. */
export { BIO_REQUIRED_MESSAGE } from '@rotunda/rules';

/** docs/product.md#5-validation-rules Duplicate issue: the create flow's words, and the profile page's. */
export const DUPLICATE_ISSUE_MESSAGES = {
  create: 'You already added this issue.',
  profile: 'You already cover this issue.',
} as const;

/**
 * docs/product.md#9-business-constants-and-limits: bios longer than this are truncated with an ellipsis until
 * expanded.
 */
export const BIO_PREVIEW_LENGTH = 550;

/**
 * docs/product.md#9-business-constants-and-limits: autocomplete lists show at most 5 suggestions (arrow keys
 * over indices 0 to 4).
 */
export const SUGGESTION_LIMIT = 5;

/**
 * docs/product.md#9-business-constants-and-limits: the colleague list shows 5, the rest in the all-colleagues
 * dialog.
 */
export const COLLEAGUES_SHOWN = 5;

/** docs/product.md#5-validation-rules Create job step: the Type of Organization options. */
export const ORGANIZATION_TYPES = [
  'Associations',
  'Agencies',
  "Governor's Office",
  'Legislature',
  'Lobbyists',
  'Unions',
  'Other',
] as const;

/** The state legislature's bill site the issues panel links to. */
export const BILL_SITE_URL = 'https://leginfo.legislature.ca.gov/';

/**
 * The Secretary of State's lobbying disclosure site (Cal-Access) keys a lobbyist's page by the filer id:
 * https://cal-access.sos.ca.gov/Lobbying/Lobbyists/Detail.aspx?id=<id>
 */
export function lobbyistUrl(filerId: string): string {
  return `https://cal-access.sos.ca.gov/Lobbying/Lobbyists/Detail.aspx?id=${encodeURIComponent(filerId.trim())}`;
}

/**
 * docs/product.md#6-roles-and-permissions: the owner edits their profile; a contributor edits profiles nobody
 * owns, except one whose pending claim is their own. Nobody else (the claimant of a pending claim included,
 * until a contributor confirms it).
 */
export function canEditProfile(
  profile: Pick<Profile, 'user_id' | 'claimed_by_you'>,
  user: AuthUser | null,
): boolean {
  if (!user) return false;
  if (profile.user_id !== null) return profile.user_id === user.user_id;
  return user.contributor === true && !profile.claimed_by_you;
}

/** A member who owns no profile may claim one nobody owns and no claim waits on. */
export function canClaimProfile(
  profile: Pick<Profile, 'user_id' | 'claim_pending'>,
  user: AuthUser | null,
): boolean {
  return user !== null && user.profile_id === null && profile.user_id === null && !profile.claim_pending;
}

/** A claim's time as the state's offices read it, e.g. 'Nov 20, 2026, 9:04 AM'. */
export function claimedAt(instant: string): string {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString('en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'America/Los_Angeles',
  });
}

/** The bio as shown: whole, or cut at 550 characters with an ellipsis while not expanded. */
export function bioPreview(bio: string, expanded: boolean): { text: string; truncated: boolean } {
  const characters = [...bio];
  if (expanded || characters.length <= BIO_PREVIEW_LENGTH) return { text: bio, truncated: false };
  return { text: `${characters.slice(0, BIO_PREVIEW_LENGTH).join('').trimEnd()}…`, truncated: true };
}

/** Whether the bio is long enough to need the Show more control. */
export const bioIsLong = (bio: string): boolean => [...bio].length > BIO_PREVIEW_LENGTH;

/** 'Jan 2020' from '2020-01-15' (the date's own month, whatever the time zone); '' when unreadable. */
export function shortMonthYear(date: string | null | undefined): string {
  const match = /^(\d{4})-(\d{2})/.exec(date ?? '');
  if (!match) return '';
  const [, year, month] = match;
  return new Date(Date.UTC(Number(year), Number(month) - 1, 1)).toLocaleDateString('en-US', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * docs/product.md#9-business-constants-and-limits: 'Jan 2020 – present' without an end date, 'Jan 2020 – Mar
 * 2023' with one.
 */
export function jobDates(job: Pick<Job, 'start_date' | 'end_date' | 'current_job'>): string {
  const end = job.current_job || !job.end_date ? 'present' : shortMonthYear(job.end_date);
  return `${shortMonthYear(job.start_date)} – ${end}`;
}

/** The profile's current job (the server lists it first), if it has one. */
export const currentJobOf = (profile: Pick<Profile, 'JobExperiences'>): Job | undefined =>
  profile.JobExperiences.find((job) => job.current_job);

/**
 * docs/product.md#5-validation-rules Job deletion: only a job that is not current, on a profile with more
 * than one job.
 */
export const canDeleteJob = (job: Job, jobs: readonly Job[]): boolean => !job.current_job && jobs.length > 1;

/** The colleagues to list: one entry per profile, never the profile on screen, in random order. */
export function colleaguesOf(
  colleagues: readonly Colleague[],
  profileId: number,
  random: () => number = Math.random,
): Colleague[] {
  const seen = new Set<number>([profileId]);
  const kept = colleagues.filter((colleague) => {
    const id = colleague.ProfileInfo?.profile_id ?? colleague.profile_id;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  return shuffle(kept, random);
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The issue of this name (any case) among `issues`, if there is one. */
export const issueNamed = (issues: readonly IssueArea[], name: string): IssueArea | undefined =>
  issues.find((issue) => sameName(issue.issue_name, name));

/**
 * Up to 5 issues for the typed text: every word found in the name (any case), issues already chosen left
 * out, names starting with the text first, then by name.
 */
export function issueSuggestions(
  issues: readonly IssueArea[],
  text: string,
  chosenNames: readonly string[],
): IssueArea[] {
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const typed = text.trim().toLowerCase();
  return issues
    .filter((issue) => !chosenNames.some((name) => sameName(name, issue.issue_name)))
    .filter((issue) => words.every((word) => issue.issue_name.toLowerCase().includes(word)))
    .sort((a, b) => {
      const aStarts = a.issue_name.toLowerCase().startsWith(typed) ? 0 : 1;
      const bStarts = b.issue_name.toLowerCase().startsWith(typed) ? 0 : 1;
      return aStarts - bStarts || a.issue_name.localeCompare(b.issue_name, 'en-US');
    })
    .slice(0, SUGGESTION_LIMIT);
}

/** Whether `name` is already among the chosen issue names (any case): the add is refused. */
export const isDuplicateIssue = (chosenNames: readonly string[], name: string): boolean =>
  chosenNames.some((chosen) => sameName(chosen, name));

/** A person's legal name: first and last. */
export const fullName = (person: { first_name: string; last_name: string }): string =>
  [person.first_name.trim(), person.last_name.trim()].filter(Boolean).join(' ');

/** A person's name as the profile page heads it: the preferred name in place of the first when given. */
export const shownName = (person: Pick<Profile, 'first_name' | 'last_name' | 'preferred_name'>): string =>
  fullName({ first_name: shownFirstName(person), last_name: person.last_name });

/** Up to two initials for a placeholder picture: 'Ada Lopez' gives 'AL'. */
export function initialsOf(person: { first_name: string; last_name: string }): string {
  const letters = [person.first_name, person.last_name].map((part) => [...part.trim()][0] ?? '');
  return letters.join('').toUpperCase() || '?';
}
