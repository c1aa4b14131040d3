// Stand-ins for the services the profile service asks, as recording fakes (service-kit's): an OrgService that
// answers ExportNames and GetOrganization from an in-memory list (which a test may change, as the org service's
// data would), and an AuthService that answers FindUserIdsByEmail; the rest fail.
import { AuthServiceService } from '@rotunda/protos/auth';
import { type Division, type Organization, OrgServiceService } from '@rotunda/protos/org';
import { organizationEmailDomains } from '@rotunda/rules';
import { DomainError } from '@rotunda/service-kit';
import { type RecordingFake, startRecordingFake } from '@rotunda/service-kit/testing';

export interface FakeOrgData {
  /** Organizations ExportNames answers. */
  exported: Organization[];
  /** Organizations only GetOrganization knows (added after the last export). */
  later: Organization[];
  divisions: Division[];
}

export function startFakeOrg(data: FakeOrgData): Promise<RecordingFake> {
  return startRecordingFake({
    definition: OrgServiceService,
    defaults: {
      exportNames: async () => ({
        organizations: data.exported.map((o) => ({
          organization_id: o.organization_id,
          organization_name: o.organization_name,
          group_type: o.group_type,
          logo: o.logo,
          email_domains: organizationEmailDomains({
            confirmedWebsite: o.website_confirmed ? o.website : null,
            listed: o.email_domains,
          }),
        })),
        divisions: data.divisions.filter((d) =>
          data.exported.some((o) => o.organization_id === d.organization_id),
        ),
      }),
      getOrganization: async (request) => {
        const organization = [...data.exported, ...data.later].find(
          (o) => o.organization_id === request.organization_id,
        );
        if (!organization) throw new DomainError('not_found', 'Organization not found');
        return {
          organization,
          divisions: data.divisions.filter((d) => d.organization_id === organization.organization_id),
        };
      },
    },
  });
}

export function startFakeAuth(accounts: Record<string, string>): Promise<RecordingFake> {
  return startRecordingFake({
    definition: AuthServiceService,
    defaults: {
      findUserIdsByEmail: async (request) => ({
        users: (request.emails as string[]).flatMap((email) =>
          accounts[email] ? [{ email, user_id: accounts[email] as string }] : [],
        ),
      }),
    },
  });
}

const org = (
  organization_id: number,
  organization_name: string,
  group_type: string,
  street_address = '1215 K Street',
): Organization => ({
  organization_id,
  organization_name,
  group_id: 0,
  group_type,
  street_address,
  suite_number: 'Suite 100',
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  logo: `/media/logos/2026/11/00000000-0000-4000-8000-${String(organization_id).padStart(12, '0')}.png`,
  email_domains: [],
  website_confirmed: false,
});

const division = (
  division_id: number,
  organization_id: number,
  division_name: string,
  active_division = true,
): Division => ({
  division_id,
  division_name,
  division_type: 'Office',
  active_division,
  organization_id,
  organization_name: '',
  street_address: '715 P Street',
  suite_number: `Floor ${division_id}`,
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  division_phone: '(916) 555-0142',
  website: 'https://division.example.org',
});

/** A small world like the org service's demo: every group, divisions, the product's own organization. */
export function demoOrgData(): FakeOrgData {
  return {
    exported: [
      org(1, 'Capitol Bridge Advocates', 'Lobbyists', '1201 k street'),
      org(2, 'Department of Water Stewardship', 'Agencies', '715 P Street'),
      org(3, 'Office of Senator Elena Marquez', 'Legislature'),
      org(4, 'Office of Assemblymember David Okafor', 'Legislature'),
      org(5, 'Office of the Governor', "Governor's Office"),
      org(6, 'Senate Office of Policy Research', 'Legislature'),
      org(7, 'Assembly Committee on Housing and Community Development', 'Legislature'),
      org(8, 'Golden State Nurses Union', 'Unions'),
      org(9, 'Sierra Valley Growers Association', 'Associations'),
      org(10, 'Rotunda', 'Other'),
    ],
    later: [org(50, 'Harbor Lights Coalition', 'Associations')],
    divisions: [
      division(21, 2, 'Groundwater Management Division'),
      division(22, 2, 'Dam Safety Division'),
      division(23, 2, 'Drought Response Unit', false),
      division(11, 1, 'Government Affairs'),
      division(51, 50, 'Harbor Office'),
    ],
  };
}
