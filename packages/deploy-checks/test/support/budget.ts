// The connection budget of a rendered overlay: each service's pools as its own schema reads them from the pod's
// environment, its autoscaler's maximum and its rollout's surge, the migrate Job and the digests' CronJob, against
// the max_connections the postgres Service asks of the server behind it.
import { z } from 'zod';
import { type Budget, connectionBudget, type ServiceName } from '../../src/connection-budget.ts';
import { type Container, environmentOf, type Manifest, ofKind } from './kustomize.ts';
import { SERVICE_SCHEMAS, splitImage } from './repo.ts';

/** The annotation on the postgres Service: the max_connections the server must be started with. */
export const MAX_CONNECTIONS_ANNOTATION = 'rotunda/postgres-max-connections';

const SERVICES = Object.keys(SERVICE_SCHEMAS) as ServiceName[];

/** The settings that size a service's pools, as its own schema parsed them (each service must read both sizes). */
const poolSettings = z.object({
  DATABASE_POOL_SIZE: z.number(),
  DATABASE_READ_POOL_SIZE: z.number(),
  ELASTICSEARCH_URL: z.string().optional(),
  SEARCH_IN_MEMORY: z.boolean().optional(),
});

/** A rollingUpdate maxSurge (a count or a percentage, rounded up as the Deployment controller does). */
function surgeOf(deployment: Manifest, replicas: number): number {
  const surge = deployment.spec.strategy?.rollingUpdate?.maxSurge ?? '25%';
  return typeof surge === 'number' ? surge : Math.ceil((Number.parseInt(surge, 10) / 100) * replicas);
}

export function kubernetesBudget(manifests: Manifest[]): Budget {
  const postgres = ofKind(manifests, 'Service').find((s) => s.metadata.name === 'postgres');
  const maxConnections = Number(postgres?.metadata.annotations?.[MAX_CONNECTIONS_ANNOTATION]);
  if (!Number.isInteger(maxConnections))
    throw new Error(`the postgres Service has no ${MAX_CONNECTIONS_ANNOTATION} annotation`);
  const deployments = SERVICES.map((service) => {
    const deployment = ofKind(manifests, 'Deployment').find((d) => d.metadata.name === service);
    const autoscaler = ofKind(manifests, 'HorizontalPodAutoscaler').find(
      (h) => h.spec.scaleTargetRef.name === service,
    );
    const [container] = (deployment?.spec.template.spec.containers ?? []) as Container[];
    if (!deployment || !autoscaler || !container) throw new Error(`${service}: no Deployment or autoscaler`);
    const maxReplicas: number = autoscaler.spec.maxReplicas;
    const settings = poolSettings.parse(SERVICE_SCHEMAS[service].parse(environmentOf(manifests, container)));
    return { service, maxReplicas, maxSurge: surgeOf(deployment, maxReplicas), settings };
  });
  // The migrate Job's init containers run one after another: one connection per Job.
  const migrations = ofKind(manifests, 'Job').length;
  // A scheduled run (the digests) opens its service's Prisma pool and nothing else; one run at a time (Forbid).
  const others = Object.fromEntries(
    ofKind(manifests, 'CronJob').map((cronJob) => {
      const [container] = cronJob.spec.jobTemplate.spec.template.spec.containers as Container[];
      const service = splitImage(container?.image ?? '').name.replace(/^rotunda\//, '') as ServiceName;
      if (!container || !SERVICE_SCHEMAS[service] || cronJob.spec.concurrencyPolicy !== 'Forbid')
        throw new Error(`${cronJob.metadata.name}: one container of a service's image, one run at a time`);
      const settings = poolSettings.parse(
        SERVICE_SCHEMAS[service].parse(environmentOf(manifests, container)),
      );
      return [cronJob.metadata.name, settings.DATABASE_POOL_SIZE];
    }),
  );
  return connectionBudget({ deployments, migrations, others, maxConnections });
}
