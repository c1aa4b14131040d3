// The organization screens' side of the stand-in gateway (@rotunda/ui/testing's stubFetch and answer builders,
// re-exported here): builders of the records the organization calls answer.
import type { Division, Organization, OrganizationDetail } from '../../src/api';

export { type Handler, json, noContent, type RecordedCall, refusal, stubFetch } from '@rotunda/ui/testing';

export function organization(overrides: Partial<Organization> = {}): Organization {
  const id = overrides.organization_id ?? 1;
  return {
    organization_id: id,
    organization_name: `Organization ${id}`,
    group_id: 2,
    group_type: 'Agencies',
    street_address: '715 P Street',
    suite_number: null,
    city: 'Sacramento',
    state: 'CA',
    zip_code: '95814',
    website: null,
    main_phone: '(916) 555-0100',
    logo: null,
    lobby_filer_id: null,
    linkedin_url: null,
    facebook_url: null,
    youtube_url: null,
    threads_url: null,
    twitter_url: null,
    instagram_url: null,
    tiktok_url: null,
    bluesky_url: null,
    email_domains: [],
    ...overrides,
  };
}

export function division(overrides: Partial<Division> & { division_name: string }): Division {
  return {
    division_id: Math.floor(Math.random() * 1e9),
    division_type: 'Office',
    active_division: true,
    organization_id: 1,
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

export function detail(overrides: Partial<OrganizationDetail> = {}): OrganizationDetail {
  return { ...organization(overrides), Divisions: overrides.Divisions ?? [] };
}

export const GROUPS = [
  'Associations',
  'Agencies',
  "Governor's Office",
  'Legislature',
  'Lobbyists',
  'Unions',
  'Campaigns',
  'Other',
].map((group_name, i) => ({ group_id: i + 1, group_name }));
