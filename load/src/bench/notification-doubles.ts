// What the notifications bench puts around the notification service so that only its own work is measured: a
// minimal SMTP server that accepts and counts mail (a real SMTP conversation, nothing stored), the auth and
// profile services' member reads (emails, issue areas, the token keys and ended sessions the gateway asks for) on
// one real gRPC server for generated members, access tokens signed with a key that server publishes, and
// server-sent-event connections that remember the last unread count each received.
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { type ClientRequest, get } from 'node:http';
import { createServer, type Socket } from 'node:net';
import type { ServerWritableStream } from '@grpc/grpc-js';
import { AuthServiceService } from '@rotunda/protos/auth';
import { type MemberIssueAreas, ProfileServiceService } from '@rotunda/protos/profile';
import { createLogger, type RunningGrpcServer, startGrpcServer, unary } from '@rotunda/service-kit';
import { testCallers } from '@rotunda/service-kit/testing';

export interface SmtpSink {
  port: number;
  /** Messages accepted so far. */
  received: () => number;
  /** Bytes of message data accepted so far. */
  bytes: () => number;
  close: () => Promise<void>;
}

/** An SMTP server on a free loopback port that says yes to everything and keeps only counts. */
export async function startSmtpSink(): Promise<SmtpSink> {
  let received = 0;
  let bytes = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setEncoding('latin1');
    let buffer = '';
    let inData = false;
    socket.write('220 bench-sink ESMTP\r\n');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          // The data began after the DATA line's CRLF, given back to it, so even an empty body ends this way.
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) break;
          bytes += end;
          received += 1;
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 2.0.0 accepted\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) break;
        const verb = buffer.slice(0, Math.min(eol, 4)).toUpperCase();
        buffer = buffer.slice(eol + 2);
        if (verb === 'EHLO') socket.write('250-bench-sink\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          inData = true;
          buffer = `\r\n${buffer}`;
          socket.write('354 end with <CRLF>.<CRLF>\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    received: () => received,
    bytes: () => bytes,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The issuer the gateway is told to expect, as its tests use (the built-in provider's shape). */
export const TOKEN_ISSUER = 'http://localhost:8080/realms/rotunda';
const KID = 'bench-key';

export interface TokenSigner {
  jwksJson: string;
  /** A member's access token (the web client's, email confirmed, a live session) for an hour. */
  tokenFor: (userId: string) => string;
}

export function tokenSigner(): TokenSigner {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: KID, alg: 'RS256', use: 'sig' };
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const header = part({ alg: 'RS256', typ: 'JWT', kid: KID });
  return {
    jwksJson: JSON.stringify({ keys: [jwk] }),
    tokenFor: (userId) => {
      const now = Math.floor(Date.now() / 1000);
      const body = part({
        iss: TOKEN_ISSUER,
        sub: userId,
        typ: 'Bearer',
        azp: 'rotunda-web',
        email: `${userId}@agency.ca.gov`,
        email_verified: true,
        sid: `session-${userId}`,
        realm_access: { roles: ['default-roles-rotunda'] },
        iat: now,
        exp: now + 3600,
      });
      const signature = sign('sha256', Buffer.from(`${header}.${body}`), privateKey as KeyObject);
      return `${header}.${body}.${signature.toString('base64url')}`;
    },
  };
}

/** The bench's generated members: `member-000001` … with an email and one of ten issue areas each. */
export const memberId = (i: number) => `member-${String(i).padStart(6, '0')}`;
export const memberEmail = (i: number) => `member${i}@agency.ca.gov`;
export const ISSUE_AREAS = 10;

/**
 * The auth service's GetMemberEmails, GetJwks and ListEndedSessions and the profile service's
 * ListMemberIssueAreas, for `members()` generated members (read at each call, so a section can change it).
 */
export async function startMemberDirectory(
  members: () => number,
  signer: TokenSigner,
): Promise<RunningGrpcServer> {
  const logger = createLogger('bench-members', 'silent');
  return startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger,
    callers: testCallers.verifier,
    services: [
      {
        name: 'rotunda.auth.v1.AuthService',
        definition: AuthServiceService,
        implementation: {
          getMemberEmails: unary(logger, 'getMemberEmails', async (request: { user_ids: string[] }) => ({
            members: request.user_ids.flatMap((userId) => {
              const i = Number(userId.slice('member-'.length));
              return userId.startsWith('member-') && i >= 1 && i <= members()
                ? [{ user_id: userId, email: memberEmail(i) }]
                : [];
            }),
          })),
          getJwks: unary(logger, 'getJwks', async () => ({ jwks_json: signer.jwksJson })),
          listEndedSessions: unary(logger, 'listEndedSessions', async () => ({
            session_ids: [],
            cursor: 'bench',
            retain_seconds: 360,
          })),
        },
      },
      {
        name: 'rotunda.profile.v1.ProfileService',
        definition: ProfileServiceService,
        implementation: {
          async listMemberIssueAreas(call: ServerWritableStream<unknown, MemberIssueAreas>) {
            for (let i = 1; i <= members(); i++) {
              const more = call.write({
                user_id: memberId(i),
                profile_id: i,
                issue_area_ids: [(i % ISSUE_AREAS) + 1],
              });
              if (!more) await new Promise((resolve) => call.once('drain', resolve));
            }
            call.end();
          },
        },
      },
    ],
  });
}

export interface LiveCount {
  member: string;
  /** The last unread count received; -1 before the first. */
  last: number;
  request: ClientRequest;
}

/**
 * Opens GET /api/notifications/stream as `member` and keeps it; resolves with the connection once its first count
 * arrived, and calls `onCount` at every count after that.
 */
export function openLiveCount(
  url: string,
  member: string,
  token: string,
  onCount: (live: LiveCount) => void,
): Promise<LiveCount> {
  return new Promise((resolve, reject) => {
    const request = get(url, {
      agent: false,
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    const live: LiveCount = { member, last: -1, request };
    request.on('error', reject);
    request.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`the stream answered ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const line = buffer
            .slice(0, end)
            .split('\n')
            .find((l) => l.startsWith('data: '));
          buffer = buffer.slice(end + 2);
          if (!line) continue;
          const first = live.last < 0;
          live.last = (JSON.parse(line.slice(6)) as { unread_count: number }).unread_count;
          if (first) resolve(live);
          else onCount(live);
        }
      });
      res.on('error', () => {});
    });
  });
}
