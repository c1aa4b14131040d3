#!/usr/bin/env node
// A gRPC service's container health check: asks grpc.health.v1.Health/Check on the service's port and exits 0
// only when it answers SERVING. Docker's HEALTHCHECK runs it; Kubernetes probes gRPC health natively.
import { makeClientConstructor, type ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { serviceClient } from './clients.ts';

export type ProbeStatus = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN' | 'UNREACHABLE';

const HealthClient = makeClientConstructor(healthService, 'grpc.health.v1.Health');

/** The health status `address` reports for `service` ('' is the whole server), or UNREACHABLE. */
export function probeGrpcHealth(
  address: string,
  { service = '', timeoutMs = 2000 }: { service?: string; timeoutMs?: number } = {},
): Promise<ProbeStatus> {
  const client = serviceClient(HealthClient, address);
  const check = client.Check as (
    request: { service: string },
    options: { deadline: Date },
    callback: (error: ServiceError | null, response?: { status: ProbeStatus }) => void,
  ) => void;
  return new Promise<ProbeStatus>((resolve) => {
    check.call(client, { service }, { deadline: new Date(Date.now() + timeoutMs) }, (error, response) => {
      client.close();
      resolve(error || !response ? 'UNREACHABLE' : response.status);
    });
  });
}

// Command line: `health-probe [host:port]`; the default is this container's GRPC_PORT on the loopback.
if (import.meta.main) {
  const address = process.argv[2] ?? `127.0.0.1:${process.env.GRPC_PORT ?? '50051'}`;
  const status = await probeGrpcHealth(address);
  if (status !== 'SERVING') process.stderr.write(`${address}: ${status}\n`);
  process.exit(status === 'SERVING' ? 0 : 1);
}
