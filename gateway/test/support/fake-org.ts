// A recording fake OrgService (service-kit's) for the gateway's /api/orgs tests: canned organizations, divisions
// and groups.
import { type Division, type Organization, OrgServiceService } from '@rotunda/protos/org';
import { type FakeAnswer, type RecordingFake, startRecordingFake } from '@rotunda/service-kit/testing';

export const ORGANIZATION: Organization = {
  organization_id: 12,
  organization_name: 'Capitol Bridge Advocates',
  group_id: 5,
  group_type: 'Lobbyists',
  street_address: '1201 K Street',
  suite_number: 'Suite 1050',
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  website: 'https://capitolbridge.example.org',
  main_phone: '(916) 555-0120',
  logo: '/media/logos/2026/11/0b1d3a52-7c1e-4d8a-9a43-1d2f6b1f0a01.png',
  lobby_filer_id: '9100120',
  linkedin_url: 'https://www.linkedin.com/company/capitolbridge-demo',
  email_domains: ['capitolbridge.example.org'],
  website_confirmed: true,
};

export const DIVISION: Division = {
  division_id: 3,
  division_name: 'Government Affairs',
  division_type: 'Office',
  active_division: true,
  organization_id: 12,
  organization_name: 'Capitol Bridge Advocates',
  city: 'Sacramento',
  state: 'CA',
  division_phone: '(916) 555-0141',
};

export const GROUPS = [
  { group_id: 1, group_name: 'Associations' },
  { group_id: 5, group_name: 'Lobbyists' },
];

export type FakeOrg = RecordingFake;

export async function startFakeOrg(): Promise<FakeOrg> {
  const defaults: Record<string, FakeAnswer> = {
    listGroups: async () => ({ groups: GROUPS }),
    listOrganizations: async () => ({ organizations: [ORGANIZATION] }),
    searchOrganizations: async () => ({ organizations: [ORGANIZATION], total: 41 }),
    getOrganization: async () => ({ organization: ORGANIZATION, divisions: [DIVISION] }),
    addOrganization: async () => ({ organization: ORGANIZATION, created: true }),
    updateOrganization: async () => ORGANIZATION,
    setOrganizationLogo: async () => ({
      url: '/media/logos/2026/11/1c2d3a52-7c1e-4d8a-9a43-1d2f6b1f0a02.png',
    }),
    findOrganizationsByName: async () => ({ organizations: [ORGANIZATION] }),
    findDivisionsByName: async () => ({ divisions: [DIVISION] }),
    addDivision: async () => ({ division: DIVISION, created: true }),
    listDivisions: async () => ({ divisions: [DIVISION] }),
  };
  return startRecordingFake({ definition: OrgServiceService, defaults });
}
