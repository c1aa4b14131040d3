// Asks each service's standard gRPC health check (grpc.health.v1.Health/Check) whether it is serving, and whether
// it reaches the dependencies every replica shares (its `dependency/database` status, ADR 0047).
import { makeClientConstructor, type ServiceError, status } from '@grpc/grpc-js';
import { serviceClient } from '@rotunda/service-kit';
import { service as healthService } from 'grpc-health-check';
import type { ServiceName } from './clients.ts';

const HealthClient = makeClientConstructor(healthService, 'grpc.health.v1.Health');

interface CheckResponse {
  status: 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';
}

export type HealthStatus = CheckResponse['status'] | 'UNREACHABLE';

/** What a service says of a dependency: reached or not. */
export type DependencyStatus = 'UP' | 'UNAVAILABLE';

/**
 * The shared dependencies each service reports; a service that names none, or that could not be asked (its own
 * status says so), is left out.
 */
export type DependencyReport = Partial<Record<ServiceName, { database: DependencyStatus }>>;

const DATABASE_HEALTH = 'dependency/database';

export function createHealthChecker(addresses: Record<ServiceName, string>, timeoutMs = 1000) {
  const clients = Object.entries(addresses).map(([name, address]) => ({
    name: name as ServiceName,
    client: serviceClient(HealthClient, address),
  }));
  const checkOne = (client: InstanceType<typeof HealthClient>, service = '') =>
    new Promise<HealthStatus>((resolve) => {
      const check = client.Check as (
        request: { service: string },
        options: { deadline: Date },
        callback: (error: ServiceError | null, response?: CheckResponse) => void,
      ) => void;
      check.call(client, { service }, { deadline: new Date(Date.now() + timeoutMs) }, (error, response) => {
        // The health service answers NOT_FOUND for a name it does not report.
        if (error?.code === status.NOT_FOUND) resolve('SERVICE_UNKNOWN');
        else resolve(error || !response ? 'UNREACHABLE' : response.status);
      });
    });
  return {
    async check(): Promise<Record<ServiceName, HealthStatus>> {
      const results = await Promise.all(
        clients.map(async ({ name, client }) => [name, await checkOne(client)]),
      );
      return Object.fromEntries(results);
    },
    async dependencies(): Promise<DependencyReport> {
      const results = await Promise.all(
        clients.map(async ({ name, client }) => [name, await checkOne(client, DATABASE_HEALTH)] as const),
      );
      const report: DependencyReport = {};
      for (const [name, database] of results) {
        if (database === 'SERVING') report[name] = { database: 'UP' };
        else if (database === 'NOT_SERVING') report[name] = { database: 'UNAVAILABLE' };
      }
      return report;
    },
    close: () => {
      for (const { client } of clients) client.close();
    },
  };
}
