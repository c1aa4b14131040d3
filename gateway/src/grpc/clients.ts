// gRPC clients for every service, and one promise-returning call helper that applies the deadline and
// carries the request id in the metadata.
import {
  type ChannelCredentials,
  type Client,
  credentials,
  Metadata,
  type ServiceError,
} from '@grpc/grpc-js';
import { NewsServiceClient } from '@rotunda/protos/news';
import { REQUEST_ID_HEADER } from '@rotunda/service-kit';
import type { GatewayConfig } from '../config.ts';

export const SERVICE_NAMES = ['auth', 'profile', 'org', 'post', 'news'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface ServiceClients {
  news: NewsServiceClient;
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
  };
  const news = new NewsServiceClient(addresses.news, creds);
  return {
    news,
    addresses,
    deadlineMs: config.GRPC_DEADLINE_MS,
    close: () => news.close(),
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

type UnaryMethod<Request, Response> = (
  request: Request,
  metadata: Metadata,
  options: { deadline: Date },
  callback: (error: ServiceError | null, response: Response) => void,
) => unknown;

export function call<Request, Response>(
  service: ServiceName,
  client: Client,
  method: UnaryMethod<Request, Response>,
  request: Request,
  context: { requestId: string; deadlineMs: number },
): Promise<Response> {
  const metadata = new Metadata();
  metadata.set(REQUEST_ID_HEADER, context.requestId);
  return new Promise((resolve, reject) => {
    method.call(
      client,
      request,
      metadata,
      { deadline: new Date(Date.now() + context.deadlineMs) },
      (error, response) => (error ? reject(new ServiceCallError(service, error)) : resolve(response)),
    );
  });
}
