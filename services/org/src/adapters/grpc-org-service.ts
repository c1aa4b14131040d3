// The gRPC face of the org service (rotunda.org.v1.OrgService): translates messages to the rules' calls and
// the rules' answers back, null fields becoming absent ones.
import type {
  Division as DivisionMessage,
  OrganizationFields as FieldsMessage,
  Organization as OrganizationMessage,
  OrgServiceServer,
} from '@rotunda/protos/org';
import { organizationEmailDomains, socialLinksOf } from '@rotunda/rules';
import { historyEntryMessage, type Logger, unary } from '@rotunda/service-kit';
import type { OrgService } from '../domain/org-service.ts';
import {
  type Division,
  employerDomainSources,
  type Organization,
  type OrganizationFields,
} from '../domain/organization.ts';

/** null (not given) becomes absent, which the REST answer shows as null. */
const opt = (value: string | null): string | undefined => value ?? undefined;

export function organizationMessage(organization: Organization): OrganizationMessage {
  return {
    organization_id: organization.organizationId,
    organization_name: organization.organizationName,
    group_id: organization.groupId,
    group_type: organization.groupName,
    street_address: opt(organization.streetAddress),
    suite_number: opt(organization.suiteNumber),
    city: opt(organization.city),
    state: opt(organization.state),
    zip_code: opt(organization.zipCode),
    website: opt(organization.website),
    main_phone: opt(organization.mainPhone),
    logo: opt(organization.logo),
    lobby_filer_id: opt(organization.lobbyFilerId),
    linkedin_url: opt(organization.linkedinUrl),
    facebook_url: opt(organization.facebookUrl),
    youtube_url: opt(organization.youtubeUrl),
    threads_url: opt(organization.threadsUrl),
    twitter_url: opt(organization.twitterUrl),
    instagram_url: opt(organization.instagramUrl),
    tiktok_url: opt(organization.tiktokUrl),
    bluesky_url: opt(organization.blueskyUrl),
    // Documents the list stored before organizations had email domains lack them: none were listed then.
    email_domains: organization.emailDomains ?? [],
    // Likewise, older documents lack the confirmation: the badge reads it from the table, never from the list.
    website_confirmed: !!organization.websiteConfirmedBy,
  };
}

export function divisionMessage(division: Division): DivisionMessage {
  return {
    division_id: division.divisionId,
    division_name: division.divisionName,
    division_type: division.divisionType,
    active_division: division.activeDivision,
    organization_id: division.organizationId,
    organization_name: division.organizationName,
    street_address: opt(division.streetAddress),
    suite_number: opt(division.suiteNumber),
    city: opt(division.city),
    state: opt(division.state),
    zip_code: opt(division.zipCode),
    division_phone: opt(division.divisionPhone),
    website: opt(division.website),
  };
}

/** Absent stays absent (keep the stored value); present, even empty, is passed on (empty clears). */
function fieldsOf(message: FieldsMessage | undefined): Partial<Record<keyof OrganizationFields, string>> {
  const m = message ?? {};
  const fields = {
    streetAddress: m.street_address,
    suiteNumber: m.suite_number,
    city: m.city,
    state: m.state,
    zipCode: m.zip_code,
    website: m.website,
    mainPhone: m.main_phone,
    lobbyFilerId: m.lobby_filer_id,
    ...socialLinksOf(m),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

export function grpcOrgService(org: OrgService, logger: Logger): OrgServiceServer {
  return {
    listGroups: unary(logger, 'ListGroups', async () => ({
      groups: (await org.listGroups()).map((group) => ({
        group_id: group.groupId,
        group_name: group.groupName,
      })),
    })),
    listOrganizations: unary(logger, 'ListOrganizations', async () => ({
      organizations: (await org.listOrganizations()).map(organizationMessage),
    })),
    searchOrganizations: unary(logger, 'SearchOrganizations', async (request) => {
      const page = await org.searchOrganizations({
        text: request.text,
        group: request.group,
        offset: request.offset,
        limit: request.limit,
      });
      return { organizations: page.organizations.map(organizationMessage), total: page.total };
    }),
    getOrganization: unary(logger, 'GetOrganization', async (request) => {
      const { organization, divisions } = await org.getOrganization(request.organization_id);
      return { organization: organizationMessage(organization), divisions: divisions.map(divisionMessage) };
    }),
    addOrganization: unary(logger, 'AddOrganization', async (request, context) => {
      const { organization, created } = await org.addOrganization(context.caller, {
        organizationName: request.organization_name,
        groupType: request.group_type,
        fields: fieldsOf(request.fields),
      });
      return { organization: organizationMessage(organization), created };
    }),
    updateOrganization: unary(logger, 'UpdateOrganization', async (request, context) =>
      organizationMessage(
        await org.updateOrganization(context.caller, request.organization_id, {
          organizationName: request.organization_name,
          fields: fieldsOf(request.fields),
          emailDomains: request.email_domains?.domains,
        }),
      ),
    ),
    setOrganizationLogo: unary(logger, 'SetOrganizationLogo', async (request, context) => ({
      url: await org.setLogo(context.caller, request.organization_id, request.image),
    })),
    findOrganizationsByName: unary(logger, 'FindOrganizationsByName', async (request) => ({
      organizations: (await org.findOrganizationsByName(request.name)).map(organizationMessage),
    })),
    findDivisionsByName: unary(logger, 'FindDivisionsByName', async (request) => ({
      divisions: (await org.findDivisionsByName(request.name)).map(divisionMessage),
    })),
    addDivision: unary(logger, 'AddDivision', async (request, context) => {
      const { division, created } = await org.addDivision(context.caller, {
        organizationId: request.organization_id,
        divisionName: request.division_name,
        divisionType: request.division_type,
        fields: {
          streetAddress: request.street_address,
          suiteNumber: request.suite_number,
          city: request.city,
          state: request.state,
          zipCode: request.zip_code,
          divisionPhone: request.division_phone,
          website: request.website,
        },
      });
      return { division: divisionMessage(division), created };
    }),
    listDivisions: unary(logger, 'ListDivisions', async (request) => ({
      divisions: (await org.listDivisions(request.organization_id)).map(divisionMessage),
    })),
    listOrganizationHistory: unary(logger, 'ListOrganizationHistory', async (request, context) => ({
      entries: (
        await org.organizationHistory(
          context.caller,
          request.organization_id,
          request.before_id,
          request.limit,
        )
      ).map(historyEntryMessage),
    })),
    exportNames: unary(logger, 'ExportNames', async () => {
      const { organizations, divisions } = await org.exportNames();
      return {
        organizations: organizations.map((organization) => ({
          organization_id: organization.organizationId,
          organization_name: organization.organizationName,
          group_type: organization.groupName,
          logo: opt(organization.logo),
          email_domains: organizationEmailDomains(employerDomainSources(organization)),
        })),
        divisions: divisions.map(divisionMessage),
      };
    }),
  };
}
