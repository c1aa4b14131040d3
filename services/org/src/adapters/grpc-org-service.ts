// The gRPC face of the org service (rotunda.org.v1.OrgService): translates messages to the rules' calls and
// the rules' answers back, null fields becoming absent ones. The fields of ORGANIZATION_FIELDS and
// DIVISION_FIELDS are read and written by the tables' names, so a row the proto lacks is a compile error.
import type {
  AddDivisionRequest,
  Division as DivisionMessage,
  OrganizationFields as OrganizationFieldsMessage,
  Organization as OrganizationMessage,
  OrgServiceServer,
} from '@rotunda/protos/org';
import {
  DIVISION_FIELD_NAMES,
  type DivisionFieldName,
  ORGANIZATION_FIELD_NAMES,
  type OrganizationFieldKeyOf,
  type OrganizationFieldName,
  organizationEmailDomains,
  organizationFieldKey,
} from '@rotunda/rules';
import { historyEntryMessage, type Logger, unary } from '@rotunda/service-kit';
import type { OrgService } from '../domain/org-service.ts';
import { type Division, employerDomainSources, type Organization } from '../domain/organization.ts';

/** null (not given) becomes absent, which the REST answer shows as null. */
const opt = (value: string | null): string | undefined => value ?? undefined;

type FieldName = OrganizationFieldName | DivisionFieldName;

/**
 * These fields of a record as message M holds them, absent where not given. N must be among M's fields, so a
 * table row the proto lacks is a compile error.
 */
function fieldMessages<M, N extends FieldName & keyof M>(
  record: Record<OrganizationFieldKeyOf<N>, string | null>,
  names: readonly N[],
): Pick<M, N> {
  return Object.fromEntries(names.map((name) => [name, opt(record[organizationFieldKey(name)])])) as Pick<
    M,
    N
  >;
}

/**
 * The fields a message M carries, under the service's names. Absent stays absent (keep the stored value);
 * present, even empty, is passed on (empty clears).
 */
function fieldsOf<M, N extends FieldName & keyof M>(
  message: M | undefined,
  names: readonly N[],
): Partial<Record<OrganizationFieldKeyOf<N>, string>> {
  const fields: Partial<Record<OrganizationFieldKeyOf<N>, string>> = {};
  for (const name of names) {
    const value = message?.[name] as string | undefined;
    if (value !== undefined) fields[organizationFieldKey(name)] = value;
  }
  return fields;
}

export function organizationMessage(organization: Organization): OrganizationMessage {
  return {
    organization_id: organization.organizationId,
    organization_name: organization.organizationName,
    group_id: organization.groupId,
    group_type: organization.groupName,
    logo: opt(organization.logo),
    ...fieldMessages<OrganizationMessage, OrganizationFieldName>(organization, ORGANIZATION_FIELD_NAMES),
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
    ...fieldMessages<DivisionMessage, DivisionFieldName>(division, DIVISION_FIELD_NAMES),
  };
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
        fields: fieldsOf<OrganizationFieldsMessage, OrganizationFieldName>(
          request.fields,
          ORGANIZATION_FIELD_NAMES,
        ),
      });
      return { organization: organizationMessage(organization), created };
    }),
    updateOrganization: unary(logger, 'UpdateOrganization', async (request, context) =>
      organizationMessage(
        await org.updateOrganization(context.caller, request.organization_id, {
          organizationName: request.organization_name,
          fields: fieldsOf<OrganizationFieldsMessage, OrganizationFieldName>(
            request.fields,
            ORGANIZATION_FIELD_NAMES,
          ),
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
        fields: fieldsOf<AddDivisionRequest, DivisionFieldName>(request, DIVISION_FIELD_NAMES),
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
    exportNames: unary(logger, 'ExportNames', async (request) => {
      const { organizations, divisions } = await org.exportNames(
        request.after_organization_id,
        request.after_division_id,
        request.limit,
      );
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
