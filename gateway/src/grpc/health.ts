// Asks each service's standard gRPC health check (grpc.health.v1.Health/Check) whether it is serving.
import { makeClientConstructor, type ServiceError } from '@grpc/grpc-js';
import { serviceClient } from '@rotunda/service-kit';
import { service as healthService } from 'grpc-health-check';
import type { ServiceName } from './clients.ts';

const HealthClient = makeClientConstructor(healthService, 'grpc.health.v1.Health');

interface CheckResponse {
  status: 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';
}

export type HealthStatus = CheckResponse['status'] | 'UNREACHABLE';

export function createHealthChecker(addresses: Record<ServiceName, string>, timeoutMs = 1000) {
  const clients = Object.entries(addresses).map(([name, address]) => ({
    name: name as ServiceName,
    client: serviceClient(HealthClient, address),
  }));
  const checkOne = (client: InstanceType<typeof HealthClient>) =>
    new Promise<HealthStatus>((resolve) => {
      const check = client.Check as (
        request: { service: string },
        options: { deadline: Date },
        callback: (error: ServiceError | null, response?: CheckResponse) => void,
      ) => void;
      check.call(client, { service: '' }, { deadline: new Date(Date.now() + timeoutMs) }, (error, response) =>
        resolve(error || !response ? 'UNREACHABLE' : response.status),
      );
    });
  return {
    async check(): Promise<Record<ServiceName, HealthStatus>> {
      const results = await Promise.all(
        clients.map(async ({ name, client }) => [name, await checkOne(client)]),
      );
      return Object.fromEntries(results);
    },
    close: () => {
      for (const { client } of clients) client.close();
    },
  };
}
