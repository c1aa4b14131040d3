// A stand-in for the gateway in component tests: fetch is stubbed with a handler per "METHOD path", and every
// call is recorded with its URL, body and headers. Builders make docs/api.md's records (profile, job, issue,
// organization, division, colleague) with sensible fictional values.

import type { Colleague } from '@rotunda/ui';
import type { RecordedCall } from '@rotunda/ui/testing';
import type { Division, IssueArea, Job, Organization, Profile, UserIssue } from '../../src/api';

export { type Handler, json, noContent, type RecordedCall, refusal, stubFetch } from '@rotunda/ui/testing';

/** The calls made to `path`. */
export const callsTo = (calls: readonly RecordedCall[], path: string) =>
  calls.filter((call) => decodeURIComponent(call.url.pathname) === path);

/** The JSON body of a recorded call. */
export const bodyOf = (call: RecordedCall | undefined): Record<string, unknown> =>
  JSON.parse(String(call?.body ?? 'null'));

export function organization(overrides: Partial<Organization> = {}): Organization {
  const id = overrides.organization_id ?? 10;
  return {
    organization_id: id,
    organization_name: `Organization ${id}`,
    group_type: 'Agencies',
    logo: null,
    street_address: '915 L Street',
    suite_number: null,
    city: 'Sacramento',
    state: 'CA',
    zip_code: '95814',
    ...overrides,
  };
}

export function division(overrides: Partial<Division> = {}): Division {
  const id = overrides.division_id ?? 50;
  return {
    division_id: id,
    division_name: `Office ${id}`,
    division_type: 'Office',
    active_division: true,
    organization_id: 10,
    street_address: null,
    suite_number: null,
    city: null,
    state: null,
    zip_code: null,
    division_phone: null,
    website: null,
    ...overrides,
  };
}

export function job(overrides: Partial<Job> = {}): Job {
  const organizationId = overrides.organization_id ?? 10;
  return {
    job_id: 1,
    profile_id: 7,
    title: 'Budget Analyst',
    organization_id: organizationId,
    division_id: null,
    street_address: '915 L Street',
    suite_number: null,
    city: 'Sacramento',
    state: 'CA',
    zip_code: '95814',
    start_date: '2020-01-15',
    end_date: null,
    current_job: true,
    Organization: {
      organization_id: organizationId,
      organization_name: 'Department of Finance',
      group_type: 'Agencies',
      logo: null,
    },
    Division: null,
    ...overrides,
  };
}

export function issue(issue_id: number, issue_name: string): IssueArea {
  return { issue_id, issue_name };
}

export function userIssue(id: number, area: IssueArea, profileId = 7): UserIssue {
  return { id, profile_id: profileId, issue_id: area.issue_id, IssueArea: area };
}

export function profile(overrides: Partial<Profile> = {}): Profile {
  return {
    profile_id: 7,
    user_id: 'u-other',
    first_name: 'Ada',
    last_name: 'Lopez',
    preferred_name: null,
    work_email: 'ada.lopez@dof.ca.gov',
    personal_email: null,
    mobile_phone: null,
    other_phone: '9165550142',
    birthday: null,
    pronouns: null,
    profile_picture: '/media/pictures/ada.jpg',
    user_bio: 'Budget analyst covering water and energy.',
    lobby_filer_id: null,
    linkedin_url: null,
    facebook_url: null,
    youtube_url: null,
    threads_url: null,
    twitter_url: null,
    instagram_url: null,
    tiktok_url: null,
    bluesky_url: null,
    claim_pending: false,
    claim_id: null,
    claimed_by_you: false,
    claimant: null,
    verified_employer: false,
    JobExperiences: [job()],
    UserIssues: [],
    ...overrides,
  };
}

export function colleague(profileId: number, firstName: string, title = 'Analyst'): Colleague {
  return {
    profile_id: profileId,
    title,
    city: 'Sacramento',
    state: 'CA',
    Division: null,
    ProfileInfo: {
      profile_id: profileId,
      first_name: firstName,
      last_name: 'Tester',
      profile_picture: null,
      other_phone: null,
      work_email: `${firstName.toLowerCase()}@dof.ca.gov`,
    },
  };
}
