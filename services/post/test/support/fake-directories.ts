// The profile and org services as the post service meets them, played on real gRPC servers: the profile service's
// author calls (GetAuthorByUser, GetAuthors, ListAuthors) from a list of profiles a test may edit, and the org
// service's ExportNames from a list of organizations and divisions. Both record how often they were asked.
import { OrgServiceService } from '@rotunda/protos/org';
import { type Author, ProfileServiceService } from '@rotunda/protos/profile';
import {
  createLogger,
  DomainError,
  type RunningGrpcServer,
  startGrpcServer,
  unary,
} from '@rotunda/service-kit';

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

export interface FakeProfiles {
  server: RunningGrpcServer;
  address: string;
  authors: Author[];
  calls: string[];
}

export async function startFakeProfiles(): Promise<FakeProfiles> {
  const fake = { authors: demoAuthors(), calls: [] as string[] } as FakeProfiles;
  const implementation = {
    getAuthorByUser: unary(logger, 'GetAuthorByUser', async (request: { user_id: string }) => {
      fake.calls.push('getAuthorByUser');
      const author = fake.authors.find((a) => a.user_id && a.user_id === request.user_id);
      if (!author) throw new DomainError('not_found', 'Profile not found');
      return author;
    }),
    getAuthors: unary(logger, 'GetAuthors', async (request: { profile_ids: number[] }) => {
      fake.calls.push('getAuthors');
      return { authors: fake.authors.filter((a) => request.profile_ids.includes(a.profile_id)) };
    }),
    listAuthors: unary(
      logger,
      'ListAuthors',
      async (request: { after_profile_id: number; limit: number }) => {
        fake.calls.push('listAuthors');
        return {
          authors: fake.authors
            .filter((a) => a.user_id && a.profile_id > request.after_profile_id)
            .slice(0, request.limit),
        };
      },
    ),
  };
  fake.server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [
      { name: 'rotunda.profile.v1.ProfileService', definition: ProfileServiceService, implementation },
    ],
  });
  fake.address = `127.0.0.1:${fake.server.port}`;
  return fake;
}

export interface FakeOrgs {
  server: RunningGrpcServer;
  address: string;
  organizations: { organization_id: number; organization_name: string; group_type: string }[];
  divisions: { division_id: number; division_name: string; organization_id: number }[];
  calls: string[];
}

export async function startFakeOrgs(): Promise<FakeOrgs> {
  const fake = {
    organizations: [
      { organization_id: 12, organization_name: 'Capitol Bridge Advocates', group_type: 'Lobbyists' },
      { organization_id: 14, organization_name: 'Delta Water Authority', group_type: 'Agencies' },
    ],
    divisions: [{ division_id: 3, division_name: 'Government Affairs', organization_id: 12 }],
    calls: [] as string[],
  } as FakeOrgs;
  const implementation = {
    exportNames: unary(logger, 'ExportNames', async () => {
      fake.calls.push('exportNames');
      return {
        organizations: fake.organizations.map((organization) => ({ ...organization, email_domains: [] })),
        divisions: fake.divisions.map((division) => ({
          ...division,
          division_type: 'Office',
          active_division: true,
          organization_name:
            fake.organizations.find((o) => o.organization_id === division.organization_id)
              ?.organization_name ?? '',
        })),
      };
    }),
  };
  fake.server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [{ name: 'rotunda.org.v1.OrgService', definition: OrgServiceService, implementation }],
  });
  fake.address = `127.0.0.1:${fake.server.port}`;
  return fake;
}
