// The members as the digests and immediate mails see them, asked of the services that own them as this service
// (signed service calls): emails from the auth service (GetMemberEmails, up to 1000 at once), and every owned
// profile's issue areas from the profile service (the ListMemberIssueAreas stream).
import { Metadata } from '@grpc/grpc-js';
import { AuthServiceClient } from '@rotunda/protos/auth';
import {
  type MemberIssueAreas as MemberIssueAreasMessage,
  ProfileServiceClient,
} from '@rotunda/protos/profile';
import { currentRequestId, REQUEST_ID_HEADER, serviceClient, unaryCall } from '@rotunda/service-kit';
import type { MemberIssueAreas, Members } from '../domain/ports.ts';

/** The most user ids one GetMemberEmails call may name. */
export const EMAILS_BATCH = 1000;
/** Streaming every member's issue areas takes seconds for 100,000 members; this bounds a stuck stream. */
const ISSUE_AREAS_DEADLINE_MS = 10 * 60_000;

export function grpcMembers(options: {
  authAddress: string;
  profileAddress: string;
  deadlineMs: number;
}): Members & { close: () => void } {
  const auth = serviceClient(AuthServiceClient, options.authAddress);
  const profile = serviceClient(ProfileServiceClient, options.profileAddress);
  return {
    async emails(userIds) {
      const emails = new Map<string, string>();
      for (let start = 0; start < userIds.length; start += EMAILS_BATCH) {
        const answer = await unaryCall(
          auth,
          auth.getMemberEmails,
          { user_ids: userIds.slice(start, start + EMAILS_BATCH) },
          options.deadlineMs,
        );
        for (const member of answer.members) emails.set(member.user_id, member.email);
      }
      return emails;
    },
    async *issueAreas(): AsyncIterable<MemberIssueAreas> {
      const metadata = new Metadata();
      const requestId = currentRequestId();
      if (requestId) metadata.set(REQUEST_ID_HEADER, requestId);
      const stream = profile.listMemberIssueAreas({}, metadata, {
        deadline: new Date(Date.now() + ISSUE_AREAS_DEADLINE_MS),
      });
      try {
        for await (const message of stream as AsyncIterable<MemberIssueAreasMessage>)
          yield { userId: message.user_id, issueAreaIds: message.issue_area_ids };
      } finally {
        stream.cancel();
      }
    },
    close() {
      auth.close();
      profile.close();
    },
  };
}
