// How every gRPC client of Rotunda's reaches a service: an `*_SERVICE_ADDR` value (one host:port, a comma list of
// replicas' addresses, or a dns:/// name) becomes a grpc-js target, and the channel balances round robin over
// every address it resolves, retries the service's idempotent reads on UNAVAILABLE (never a write), asks DNS
// again as replicas come and go, and notices a dead peer by keepalive pings (ADR 0025). A read that still fails
// UNAVAILABLE is sent again as a new call, a little later, within its deadline (ADR 0046).
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ChannelCredentials,
  type ChannelOptions,
  type Client,
  credentials,
  type Interceptor,
  Metadata,
  type ServiceError,
  status,
} from '@grpc/grpc-js';
import { UNAVAILABLE_DEPENDENCY_TRAILER } from '../dependencies.ts';
import { currentRequestId, REQUEST_ID_HEADER } from '../request-context.ts';
import { clientTelemetryInterceptor } from '../telemetry/grpc.ts';
import { grpcTarget } from './addresses.ts';
import { serviceCallerInterceptor } from './caller-token.ts';
import { keepDrainingCallsAlive } from './draining-keepalive.ts';
import { GRPC_OPTIONS } from './options.ts';

/**
 * Each service's reads that may safely run twice: no write, no counter (throttled calls such as CheckEmail, Login
 * or the directory download count each attempt, so they are left out), unary. A retry happens only when the
 * attempt failed with UNAVAILABLE before any answer arrived, so a read is never seen twice by its caller.
 */
export const IDEMPOTENT_READS = {
  'grpc.health.v1.Health': ['Check'],
  'rotunda.auth.v1.AuthService': [
    'VerifyCaptcha',
    'ListEndedSessions',
    'GetJwks',
    'ListEmailDomains',
    'ListBetaEmails',
    'ListApprovedEmails',
    'FindUserIdsByEmail',
  ],
  'rotunda.profile.v1.ProfileService': [
    'SearchDirectory',
    'FindUnclaimedMatches',
    'UserCheck',
    'GetProfile',
    'ListPendingClaims',
    'ListOrganizationColleagues',
    'ListDivisionColleagues',
    'ListIssueAreas',
    'GetAuthorByUser',
    'GetAuthors',
    'ListAuthors',
    'GetAuthorsByUsers',
    'GetContactCard',
    'ListProfileHistory',
  ],
  'rotunda.org.v1.OrgService': [
    'ListGroups',
    'ListOrganizations',
    'SearchOrganizations',
    'GetOrganization',
    'FindOrganizationsByName',
    'FindDivisionsByName',
    'ListDivisions',
    'ExportNames',
    'ListOrganizationHistory',
  ],
  'rotunda.post.v1.PostService': [
    'ListPosts',
    'ListPostTypes',
    'ListEventTypes',
    'GetPostType',
    'GetEventType',
    'ListComments',
    'ListMyLikes',
    'GetProfileInfo',
    'GetFeedVersion',
  ],
  'rotunda.news.v1.NewsService': ['ListHeadlines'],
  'rotunda.notification.v1.NotificationService': [
    'ListNotifications',
    'GetUnreadCount',
    'GetPreferences',
    'ExportMine',
  ],
} as const satisfies Record<string, readonly string[]>;

export type ServiceFullName = keyof typeof IDEMPOTENT_READS;

/**
 * Client keepalive: a ping every 20 s, also on an idle connection, and a peer that does not answer within 10 s is
 * dropped, so a replica that vanished without closing its sockets (a killed node) leaves the rotation in about
 * 30 s. The services' servers accept pings this often (server.ts).
 */
export const CLIENT_KEEPALIVE = {
  'grpc.keepalive_time_ms': 20_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.keepalive_permit_without_calls': 1,
} as const;

/** The service config of a channel to `service`: round robin, and one retry of its idempotent reads. */
function serviceConfig(service: ServiceFullName): string {
  const reads = IDEMPOTENT_READS[service];
  return JSON.stringify({
    loadBalancingConfig: [{ round_robin: {} }],
    methodConfig: [
      {
        name: reads.map((method) => ({ service, method })),
        retryPolicy: {
          // A third attempt for the rare pick that lands on the replica just gone, before the balancer sees it.
          maxAttempts: 3,
          initialBackoff: '0.05s',
          maxBackoff: '0.5s',
          backoffMultiplier: 2,
          retryableStatusCodes: ['UNAVAILABLE'],
        },
      },
    ],
  });
}

/**
 * Channel options for a client of `service`, whose connections keep their calls while a server drains them
 * (ADR 0063). `extra` adds options (message size limits) and interceptors, which run after the kit's own: each
 * call a span of the caller's trace (its context sent along) and counted. Last, a service's calls name the
 * service making them (a signed token, when the process has an identity).
 */
export function clientOptions(
  service: ServiceFullName,
  { interceptors = [], ...extra }: ChannelOptions & { interceptors?: Interceptor[] } = {},
): ChannelOptions & { interceptors: Interceptor[] } {
  keepDrainingCallsAlive();
  return {
    ...GRPC_OPTIONS,
    ...CLIENT_KEEPALIVE,
    'grpc.service_config': serviceConfig(service),
    // The service config is this one; no TXT record lookups on every resolution.
    'grpc.service_config_disable_resolution': 1,
    // Ask DNS again at most this often (grpc-js asks when a connection ends, e.g. on a server's max age).
    'grpc.dns_min_time_between_resolutions_ms': 5_000,
    // grpc-js waits up to 120 s between attempts to reach a replica that went away; a restarted one should get
    // its share within a couple of seconds of listening again.
    'grpc.max_reconnect_backoff_ms': 2_000,
    ...extra,
    interceptors: [clientTelemetryInterceptor(), ...interceptors, serviceCallerInterceptor()],
  };
}

type ServiceClientConstructor<C extends Client> = {
  new (address: string, credentials: ChannelCredentials, options?: ChannelOptions): C;
  serviceName: string;
};

/** A client of a generated service stub, built with grpcTarget and clientOptions. */
export function serviceClient<C extends Client>(
  Constructor: ServiceClientConstructor<C>,
  address: string,
  extra: ChannelOptions & { interceptors?: Interceptor[] } = {},
  channelCredentials: ChannelCredentials = credentials.createInsecure(),
): C {
  if (!(Constructor.serviceName in IDEMPOTENT_READS))
    throw new Error(`${Constructor.serviceName} has no entry in IDEMPOTENT_READS`);
  return new Constructor(
    grpcTarget(address),
    channelCredentials,
    clientOptions(Constructor.serviceName as ServiceFullName, extra),
  );
}

/** A generated client's unary method, as `unaryCall` calls it. */
export type UnaryMethod<Request, Response> = (
  request: Request,
  metadata: Metadata,
  options: { deadline: Date },
  callback: (error: ServiceError | null, response: Response) => void,
) => unknown;

/**
 * Is `method` (a generated client's, which grpc-js gives its full path) one of its service's IDEMPOTENT_READS?
 */
export function isIdempotentRead(method: unknown): boolean {
  const path = (method as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string') return false;
  const [, service, name] = path.split('/');
  const reads: readonly string[] | undefined = IDEMPOTENT_READS[service as ServiceFullName];
  return reads?.includes(name ?? '') ?? false;
}

/**
 * The pauses before an idempotent read is sent again as a new call once grpc-js's own attempts failed UNAVAILABLE.
 * grpc-js cannot retry an attempt once the replica's answer began (its headers arrived: the call is committed),
 * and its attempts follow each other within 150 ms, which a busy machine can spend with no replica connected (the
 * live one reconnecting as the other dies). A new call is picked afresh among the replicas connected by then.
 */
export const READ_AGAIN_AFTER_MS = [50, 200, 500] as const;

/**
 * One unary call with `metadata` until `deadline`, as a promise. An idempotent read that fails UNAVAILABLE is sent
 * again after each of READ_AGAIN_AFTER_MS while its deadline leaves room; any other call is sent once. A refusal
 * that names a dependency every replica shares (the database, an engine: ADR 0047) is not sent again: every
 * replica answers the same until it returns, and resending spent the whole deadline on a slow machine, so the
 * caller met "did not answer in time" instead of the refusal its fallback answers (the kept feed pages).
 */
export async function sendUnary<Request, Response>(
  client: Client,
  method: UnaryMethod<Request, Response>,
  request: Request,
  metadata: Metadata,
  deadline: Date,
): Promise<Response> {
  // Each call gets its own copy: the caller-signing interceptors take the plain caller out of the one they send.
  const once = () =>
    new Promise<Response>((resolve, reject) => {
      method.call(client, request, metadata.clone(), { deadline }, (error, response) =>
        error ? reject(error) : resolve(response),
      );
    });
  if (!isIdempotentRead(method)) return once();
  for (const pause of READ_AGAIN_AFTER_MS) {
    try {
      return await once();
    } catch (error) {
      if ((error as Partial<ServiceError>).code !== status.UNAVAILABLE) throw error;
      if ((error as Partial<ServiceError>).metadata?.get(UNAVAILABLE_DEPENDENCY_TRAILER).length) throw error;
      if (Date.now() + pause >= deadline.getTime()) throw error;
      await sleep(pause);
    }
  }
  return once();
}

/**
 * One unary call of one service to another, as a promise, within `deadlineMs`; the request id of the call being
 * served travels on, so the other service's log lines and spans join it.
 */
export function unaryCall<Request, Response>(
  client: Client,
  method: UnaryMethod<Request, Response>,
  request: Request,
  deadlineMs: number,
): Promise<Response> {
  const metadata = new Metadata();
  const requestId = currentRequestId();
  if (requestId) metadata.set(REQUEST_ID_HEADER, requestId);
  return sendUnary(client, method, request, metadata, new Date(Date.now() + deadlineMs));
}
