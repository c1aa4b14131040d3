// The profile and org services as the post service's ports see them, over gRPC with deadlines: who a member is
// as an author (rotunda.profile.v1 GetAuthorByUser, GetAuthors, ListAuthors) and the names the read copies start
// from (rotunda.org.v1 ExportNames, a page at a time). The request id of the call being served travels on.
import { type ServiceError, status } from '@grpc/grpc-js';
import { OrgServiceClient } from '@rotunda/protos/org';
import { exportAllNames } from '@rotunda/protos/org-names';
import { type Author as AuthorMessage, ProfileServiceClient } from '@rotunda/protos/profile';
import { serviceClient, unaryCall } from '@rotunda/service-kit';
import type { OrgDirectory, ProfileDirectory } from '../domain/ports.ts';
import type { Author } from '../domain/post.ts';

/**
 * A replica of the org service's previous release answers ExportNames whole, whatever page is asked (10,000
 * organizations is about a megabyte), which exceeds gRPC's 4 MB default at scale.
 */
const LARGE_MESSAGES = {
  'grpc.max_receive_message_length': 64 * 1024 * 1024,
  'grpc.max_send_message_length': 64 * 1024 * 1024,
};

/** Is this a gRPC failure to reach the service (so asking again later may work)? */
export function isUnavailable(error: unknown): boolean {
  const code = (error as Partial<ServiceError> | undefined)?.code;
  return code === status.UNAVAILABLE || code === status.DEADLINE_EXCEEDED;
}

export function authorOf(message: AuthorMessage): Author {
  return {
    profileId: message.profile_id,
    userId: message.user_id,
    firstName: message.first_name,
    lastName: message.last_name,
    organizationId: message.organization_id ?? null,
    divisionId: message.division_id ?? null,
    ...(message.issue_areas ? { issueAreaIds: message.issue_areas.issue_area_ids } : {}),
  };
}

export function grpcProfileDirectory(
  address: string,
  deadlineMs: number,
): ProfileDirectory & { close: () => void } {
  const client = serviceClient(ProfileServiceClient, address, LARGE_MESSAGES);
  return {
    async authorOfMember(userId) {
      try {
        return authorOf(await unaryCall(client, client.getAuthorByUser, { user_id: userId }, deadlineMs));
      } catch (error) {
        if ((error as Partial<ServiceError>).code === status.NOT_FOUND) return null;
        throw error;
      }
    },
    async authors(profileIds) {
      if (profileIds.length === 0) return [];
      const answer = await unaryCall(client, client.getAuthors, { profile_ids: [...profileIds] }, deadlineMs);
      return answer.authors.map(authorOf);
    },
    async listAuthors(afterProfileId, limit) {
      const answer = await unaryCall(
        client,
        client.listAuthors,
        { after_profile_id: afterProfileId, limit },
        deadlineMs,
      );
      return answer.authors.map(authorOf);
    },
    close: () => client.close(),
  };
}

export function grpcOrgDirectory(address: string, deadlineMs: number): OrgDirectory & { close: () => void } {
  const client = serviceClient(OrgServiceClient, address, LARGE_MESSAGES);
  return {
    async exportNames() {
      const answer = await exportAllNames((page) => unaryCall(client, client.exportNames, page, deadlineMs));
      return {
        organizations: answer.organizations.map((organization) => ({
          organizationId: organization.organization_id,
          organizationName: organization.organization_name,
        })),
        divisions: answer.divisions.map((division) => ({
          divisionId: division.division_id,
          divisionName: division.division_name,
          organizationId: division.organization_id,
        })),
      };
    },
    close: () => client.close(),
  };
}
