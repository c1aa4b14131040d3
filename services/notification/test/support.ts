// Test support for the notification service: a real MailDev inbox (the embedded default's), and the auth and
// profile services it asks for members' emails and issue areas, played by fakes on real gRPC that require a
// verified service caller as the real ones do.
import { type ServerUnaryCall, type ServerWritableStream, type sendUnaryData, status } from '@grpc/grpc-js';
import {
  AuthServiceService,
  type GetMemberEmailsRequest,
  type GetMemberEmailsResponse,
} from '@rotunda/protos/auth';
import { type MemberIssueAreas, ProfileServiceService } from '@rotunda/protos/profile';
import { createLogger, type RunningGrpcServer, startGrpcServer } from '@rotunda/service-kit';
import { freePort, testCallers } from '@rotunda/service-kit/testing';
import { MailDev } from 'maildev';

export interface InboxMail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: { address: string; name: string }[];
  from: { address: string; name: string }[];
}

export interface Inbox {
  smtpUrl: string;
  all(): Promise<InboxMail[]>;
  /** Waits for the next mail to this address whose subject matches. */
  waitFor(to: string, subject?: RegExp): Promise<InboxMail>;
  /** A header of the mail as it was sent (MailDev's parsed headers leave out the List-* ones). */
  header(mail: InboxMail, name: string): Promise<string | undefined>;
  stop(): Promise<void>;
}

export async function startInbox(): Promise<Inbox> {
  const smtpPort = await freePort();
  const webPort = await freePort();
  const maildev = new MailDev({
    smtp: smtpPort,
    web: webPort,
    ip: '127.0.0.1',
    webIp: '127.0.0.1',
    silent: true,
  });
  await maildev.start();
  const all = async () =>
    (await (await fetch(`http://127.0.0.1:${webPort}/api/email`)).json()) as InboxMail[];
  const seen = new Set<string>();
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    all,
    async waitFor(to, subject) {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const mail = (await all()).find(
          (m) =>
            !seen.has(m.id) && m.to.some((r) => r.address === to) && (!subject || subject.test(m.subject)),
        );
        if (mail) {
          seen.add(mail.id);
          return mail;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no mail to ${to} arrived in MailDev`);
    },
    async header(mail, name) {
      const source = await (await fetch(`http://127.0.0.1:${webPort}/api/email/${mail.id}/source`)).text();
      const head = source.split(/\r?\n\r?\n/)[0] ?? '';
      const unfolded = head.replace(/\r?\n(?=[ \t])/g, '');
      const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
      return line?.slice(name.length + 1).trim();
    },
    stop: () => maildev.stop(),
  };
}

export interface FakeMember {
  userId: string;
  email: string;
  profileId?: number;
  issueAreaIds?: number[];
}

/** The auth and profile services' member reads, on one real gRPC server, for service callers only. */
export async function startFakeMembers(
  members: FakeMember[],
): Promise<RunningGrpcServer & { calls: string[] }> {
  const calls: string[] = [];
  const refuse = { code: status.PERMISSION_DENIED, details: 'Only a verified Rotunda service may ask this.' };
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: createLogger('fake-members', 'silent'),
    callers: testCallers.verifier,
    services: [
      {
        name: 'rotunda.auth.v1.AuthService',
        definition: AuthServiceService,
        implementation: {
          getMemberEmails(
            call: ServerUnaryCall<GetMemberEmailsRequest, GetMemberEmailsResponse>,
            callback: sendUnaryData<GetMemberEmailsResponse>,
          ) {
            if (call.metadata.get('x-caller-service')[0] !== 'notification') return callback(refuse);
            calls.push(`emails:${call.request.user_ids.length}`);
            const wanted = new Set(call.request.user_ids);
            callback(null, {
              members: members
                .filter((m) => wanted.has(m.userId))
                .map((m) => ({ user_id: m.userId, email: m.email })),
            });
          },
        },
      },
      {
        name: 'rotunda.profile.v1.ProfileService',
        definition: ProfileServiceService,
        implementation: {
          listMemberIssueAreas(call: ServerWritableStream<unknown, MemberIssueAreas>) {
            if (call.metadata.get('x-caller-service')[0] !== 'notification') {
              call.emit('error', refuse);
              return;
            }
            calls.push('issue-areas');
            for (const m of [...members].sort((a, b) => a.userId.localeCompare(b.userId)))
              if (m.profileId)
                call.write({
                  user_id: m.userId,
                  profile_id: m.profileId,
                  issue_area_ids: m.issueAreaIds ?? [],
                });
            call.end();
          },
        },
      },
    ],
  });
  return { ...server, calls };
}
