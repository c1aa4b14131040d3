// The gRPC calls a request makes: each carries the request's id, a deadline and the verified caller (when a member
// is calling), so every router asks its service the same way.
import type { Client } from '@grpc/grpc-js';
import type { Request } from 'express';
import {
  type CallContext,
  call,
  type ServiceClients,
  type ServiceName,
  type UnaryMethod,
} from './clients.ts';

export const callContextOf = (req: Request, deadlineMs: number): CallContext => ({
  requestId: req.id as string,
  deadlineMs,
  caller: req.caller,
  idempotencyKey: req.idempotencyKey,
});

/** The unary calls a router makes to `service` for a request; the deadline is the gateway's unless given. */
export function serviceCaller<Name extends ServiceName>(
  clients: Pick<ServiceClients, Name | 'deadlineMs'>,
  service: Name,
) {
  const client = clients[service] as Client;
  return <Req, Res>(
    req: Request,
    method: UnaryMethod<Req, Res>,
    request: Req,
    deadlineMs = clients.deadlineMs,
  ) => call(service, client, method, request, callContextOf(req, deadlineMs));
}
