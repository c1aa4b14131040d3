// The other services this one asks, over gRPC: the org service (its names for the read copies, a page at a
// time, and one organization the copy has not caught up with) and the auth service (demo accounts' ids for the
// seed).
import { type ServiceError, status } from '@grpc/grpc-js';
import { AuthServiceClient } from '@rotunda/protos/auth';
import { type Division, type OrganizationSummary, OrgServiceClient } from '@rotunda/protos/org';
import { exportAllNames } from '@rotunda/protos/org-names';
import {
  ADDRESS_FIELD_NAMES,
  DIVISION_FIELD_NAMES,
  fieldsByKey,
  organizationEmailDomains,
} from '@rotunda/rules';
import { serviceClient, unaryCall } from '@rotunda/service-kit';
import type { DivisionRef, OrganizationAddress, OrganizationRef } from '../domain/model.ts';
import type { OrgDirectory } from '../domain/ports.ts';

/**
 * A replica of the org service's previous release answers ExportNames whole, tens of thousands of rows, whatever
 * page is asked; gRPC's default cap is 4 MB.
 */
const LARGE = { 'grpc.max_receive_message_length': 64 * 1024 * 1024 };
const LOOKUP_DEADLINE_MS = 5000;
/** One page of ExportNames (organizations and divisions by the thousand) on a busy machine. */
const EXPORT_PAGE_DEADLINE_MS = 10_000;

const organizationRefOf = (organization: OrganizationSummary): OrganizationRef => ({
  organizationId: organization.organization_id,
  organizationName: organization.organization_name,
  groupType: organization.group_type,
  logo: organization.logo ?? null,
  emailDomains: organization.email_domains,
});

const divisionRefOf = (division: Division): DivisionRef => ({
  divisionId: division.division_id,
  divisionName: division.division_name,
  divisionType: division.division_type,
  activeDivision: division.active_division,
  organizationId: division.organization_id,
  ...fieldsByKey(DIVISION_FIELD_NAMES, division),
});

export function grpcOrgDirectory(address: string): OrgDirectory & {
  addressOf: (organizationId: number) => Promise<OrganizationAddress | null>;
  close: () => void;
} {
  const client = serviceClient(OrgServiceClient, address, LARGE);
  return {
    async exportNames() {
      const answer = await exportAllNames((page) =>
        unaryCall(client, client.exportNames, page, EXPORT_PAGE_DEADLINE_MS),
      );
      return {
        organizations: answer.organizations.map(organizationRefOf),
        divisions: answer.divisions.map(divisionRefOf),
      };
    },
    async organizationWithDivisions(organizationId) {
      try {
        const answer = await unaryCall(
          client,
          client.getOrganization,
          { organization_id: organizationId },
          LOOKUP_DEADLINE_MS,
        );
        if (!answer.organization) return null;
        return {
          // The organization's answer lists the contributors' domains; the website's host counts as well once a
          // contributor confirmed it.
          organization: {
            ...organizationRefOf(answer.organization),
            emailDomains: organizationEmailDomains({
              confirmedWebsite: answer.organization.website_confirmed ? answer.organization.website : null,
              listed: answer.organization.email_domains,
            }),
          },
          divisions: answer.divisions.map(divisionRefOf),
        };
      } catch (error) {
        if ((error as ServiceError).code === status.NOT_FOUND) return null;
        throw error;
      }
    },
    async addressOf(organizationId) {
      const { organization } = await unaryCall(
        client,
        client.getOrganization,
        { organization_id: organizationId },
        LOOKUP_DEADLINE_MS,
      );
      return organization ? fieldsByKey(ADDRESS_FIELD_NAMES, organization) : null;
    },
    close: () => client.close(),
  };
}

/** The auth service's internal lookup of account ids by email (demo seeds). */
export function grpcAccountLookup(address: string) {
  const client = serviceClient(AuthServiceClient, address);
  return {
    async userIdsByEmail(emails: readonly string[]): Promise<Map<string, string>> {
      const answer = await unaryCall(
        client,
        client.findUserIdsByEmail,
        { emails: [...emails] },
        LOOKUP_DEADLINE_MS,
      );
      return new Map(answer.users.map((user) => [user.email, user.user_id]));
    },
    close: () => client.close(),
  };
}
