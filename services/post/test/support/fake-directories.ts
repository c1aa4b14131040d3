// The profile and org services as the post service meets them, as recording fakes (service-kit's): the profile
// service's author calls (GetAuthorByUser, GetAuthors, ListAuthors) from a list of profiles a test may edit, and
// the org service's ExportNames from a list of organizations and divisions.
import { OrgServiceService } from '@rotunda/protos/org';
import { type Author, ProfileServiceService } from '@rotunda/protos/profile';
import { createLogger, DomainError } from '@rotunda/service-kit';
import { type RecordingFake, startRecordingFake } from '@rotunda/service-kit/testing';

export const logger = createLogger('post-test', 'silent');

/**
 * Owned demo-like profiles with their issue areas (ids): Maya 1 and 2, Carlos 2, Priya 3, Owen none; `unclaimed`
 * has no member.
 */
export function demoAuthors(): Author[] {
  return [
    {
      profile_id: 101,
      user_id: 'member-1',
      first_name: 'Maya',
      last_name: 'Delgado',
      organization_id: 12,
      division_id: 3,
      issue_areas: { issue_area_ids: [1, 2] },
    },
    {
      profile_id: 102,
      user_id: 'concierge-1',
      first_name: 'Carlos',
      last_name: 'Whitaker',
      organization_id: 14,
      issue_areas: { issue_area_ids: [2] },
    },
    {
      profile_id: 103,
      user_id: 'member-3',
      first_name: 'Priya',
      last_name: 'Okafor',
      organization_id: 14,
      issue_areas: { issue_area_ids: [3] },
    },
    {
      profile_id: 104,
      user_id: 'member-4',
      first_name: 'Owen',
      last_name: 'Lindqvist',
      issue_areas: { issue_area_ids: [] },
    },
    {
      profile_id: 105,
      user_id: '',
      first_name: 'Una',
      last_name: 'Claimed',
      issue_areas: { issue_area_ids: [1] },
    },
  ];
}

export interface FakeProfiles extends RecordingFake {
  authors: Author[];
}

export async function startFakeProfiles(): Promise<FakeProfiles> {
  const authors = demoAuthors();
  const fake = await startRecordingFake({
    definition: ProfileServiceService,
    defaults: {
      getAuthorByUser: async (request) => {
        const author = authors.find((a) => a.user_id && a.user_id === request.user_id);
        if (!author) throw new DomainError('not_found', 'Profile not found');
        return author;
      },
      getAuthors: async (request) => ({
        authors: authors.filter((a) => (request.profile_ids as number[]).includes(a.profile_id)),
      }),
      listAuthors: async (request) => ({
        authors: authors
          .filter((a) => a.user_id && a.profile_id > (request.after_profile_id as number))
          .slice(0, request.limit as number),
      }),
    },
  });
  return { ...fake, authors };
}

export interface FakeOrgs extends RecordingFake {
  organizations: { organization_id: number; organization_name: string; group_type: string }[];
  divisions: { division_id: number; division_name: string; organization_id: number }[];
}

export async function startFakeOrgs(): Promise<FakeOrgs> {
  const organizations = [
    { organization_id: 12, organization_name: 'Capitol Bridge Advocates', group_type: 'Lobbyists' },
    { organization_id: 14, organization_name: 'Delta Water Authority', group_type: 'Agencies' },
  ];
  const divisions = [{ division_id: 3, division_name: 'Government Affairs', organization_id: 12 }];
  const fake = await startRecordingFake({
    definition: OrgServiceService,
    defaults: {
      exportNames: async () => ({
        organizations: organizations.map((organization) => ({ ...organization, email_domains: [] })),
        divisions: divisions.map((division) => ({
          ...division,
          division_type: 'Office',
          active_division: true,
          organization_name:
            organizations.find((o) => o.organization_id === division.organization_id)?.organization_name ??
            '',
        })),
      }),
    },
  });
  return { ...fake, organizations, divisions };
}
