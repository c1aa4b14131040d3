// gRPC clients for every service, and one promise-returning call helper that applies the deadline and
// carries the request id, and the verified caller when a member is calling, in the metadata (the channels send
// the caller only as a token signed with the gateway's key, which the services verify).
import {
  type ChannelCredentials,
  type Client,
  credentials,
  Metadata,
  type ServiceError,
} from '@grpc/grpc-js';
import { AuthServiceClient } from '@rotunda/protos/auth';
import { NewsServiceClient } from '@rotunda/protos/news';
import { NotificationServiceClient } from '@rotunda/protos/notification';
import { OrgServiceClient } from '@rotunda/protos/org';
import { PostServiceClient } from '@rotunda/protos/post';
import { ProfileServiceClient } from '@rotunda/protos/profile';
import {
  type Caller,
  callerSigningInterceptor,
  createCallerSigner,
  REQUEST_ID_HEADER,
  sendUnary,
  serviceClient,
  setCallerMetadata,
  setIdempotencyKey,
  type UnaryMethod,
} from '@rotunda/service-kit';
import type { GatewayConfig } from '../config.ts';

export const SERVICE_NAMES = ['auth', 'profile', 'org', 'post', 'news', 'notification'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface ServiceClients {
  auth: AuthServiceClient;
  news: NewsServiceClient;
  org: OrgServiceClient;
  profile: ProfileServiceClient;
  post: PostServiceClient;
  notification: NotificationServiceClient;
  addresses: Record<ServiceName, string>;
  deadlineMs: number;
  close: () => void;
}

export function createServiceClients(
  config: GatewayConfig,
  creds: ChannelCredentials = credentials.createInsecure(),
) {
  const addresses: Record<ServiceName, string> = {
    auth: config.AUTH_SERVICE_ADDR,
    profile: config.PROFILE_SERVICE_ADDR,
    org: config.ORG_SERVICE_ADDR,
    post: config.POST_SERVICE_ADDR,
    news: config.NEWS_SERVICE_ADDR,
    notification: config.NOTIFICATION_SERVICE_ADDR,
  };
  // Each client balances over every replica of its service and retries its reads on another (service kit); each call
  // is a span of the request's trace and is counted in the metrics.
  const options = {
    interceptors: [callerSigningInterceptor(createCallerSigner(config.CALLER_TOKEN_PRIVATE_KEY))],
  };
  const auth = serviceClient(AuthServiceClient, addresses.auth, options, creds);
  const news = serviceClient(NewsServiceClient, addresses.news, options, creds);
  // Logo and picture uploads reach 10 MB and the unpaged lists (organizations, the whole directory) several;
  // gRPC's default cap is 4 MB.
  const large = {
    ...options,
    'grpc.max_send_message_length': 64 * 1024 * 1024,
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
  };
  const org = serviceClient(OrgServiceClient, addresses.org, large, creds);
  const profile = serviceClient(ProfileServiceClient, addresses.profile, large, creds);
  const post = serviceClient(PostServiceClient, addresses.post, options, creds);
  const notification = serviceClient(NotificationServiceClient, addresses.notification, options, creds);
  return {
    auth,
    news,
    org,
    profile,
    post,
    notification,
    addresses,
    deadlineMs: config.GRPC_DEADLINE_MS,
    close: () => {
      auth.close();
      news.close();
      org.close();
      profile.close();
      post.close();
      notification.close();
    },
  } satisfies ServiceClients;
}

/** The service that answered (or failed to), kept on the error so the HTTP answer can name it. */
export class ServiceCallError extends Error {
  override name = 'ServiceCallError';
  readonly service: ServiceName;
  readonly grpc: ServiceError;

  constructor(service: ServiceName, grpc: ServiceError) {
    super(`${service}: ${grpc.details || grpc.message}`);
    this.service = service;
    this.grpc = grpc;
  }
}

/** A generated client's unary method (the service kit's type: the services call each other the same way). */
export type { UnaryMethod };

export interface CallContext {
  requestId: string;
  deadlineMs: number;
  /** The member on whose behalf the call is made (verified by the gateway); services trust only this. */
  caller?: Caller | undefined;
  /** The request's Idempotency-Key: a create repeated with it answers its first answer (ADR 0046). */
  idempotencyKey?: string | undefined;
}

export function call<Request, Response>(
  service: ServiceName,
  client: Client,
  method: UnaryMethod<Request, Response>,
  request: Request,
  context: CallContext,
): Promise<Response> {
  const metadata = new Metadata();
  metadata.set(REQUEST_ID_HEADER, context.requestId);
  if (context.caller) setCallerMetadata(metadata, context.caller);
  if (context.idempotencyKey) setIdempotencyKey(metadata, context.idempotencyKey);
  // A read that fails UNAVAILABLE is sent again while its deadline leaves room (service kit, ADR 0046).
  return sendUnary(client, method, request, metadata, new Date(Date.now() + context.deadlineMs)).catch(
    (error: ServiceError) => {
      throw new ServiceCallError(service, error);
    },
  );
}

export type StreamMethod<Request, Response> = (
  request: Request,
  metadata: Metadata,
  options: { deadline: Date },
) => AsyncIterable<Response> & { cancel: () => void };

/**
 * A server-streaming call: its messages as they arrive. A failure while reading throws a ServiceCallError, as a
 * unary call's does; ending the loop early cancels the call.
 */
export async function* stream<Request, Response>(
  service: ServiceName,
  client: Client,
  method: StreamMethod<Request, Response>,
  request: Request,
  context: CallContext,
): AsyncGenerator<Response> {
  const metadata = new Metadata();
  metadata.set(REQUEST_ID_HEADER, context.requestId);
  if (context.caller) setCallerMetadata(metadata, context.caller);
  const messages = method.call(client, request, metadata, {
    deadline: new Date(Date.now() + context.deadlineMs),
  });
  try {
    for await (const message of messages) yield message;
  } catch (error) {
    throw new ServiceCallError(service, error as ServiceError);
  } finally {
    messages.cancel();
  }
}
