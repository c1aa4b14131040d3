// k8s/local-data, the engines a local cluster runs in the rotunda-data namespace (npm run cluster): it renders, every
// name k8s/base's engines.yaml points there is a Service of it on the port the services call, and each engine runs
// the image docker-compose.yml runs, so the cluster and the compose stack try the same engines.

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  type Manifest,
  ofKind,
  podTemplates,
  render,
  renderLocalData,
  validateAgainstSchema,
} from './support/kustomize.ts';
import { readRepoFile } from './support/repo.ts';

/** The port each engine's name is called on (k8s/base's ConfigMap and Secret URLs). */
const ENGINE_PORTS: Record<string, number> = {
  postgres: 5432,
  keycloak: 8080,
  elasticsearch: 9200,
  'object-store': 8333,
  smtp: 1025,
};
/** docker-compose.yml's service for each Deployment here, where the names differ. */
const COMPOSE_SERVICE: Record<string, string> = { smtp: 'mail', 'keycloak-postgres': 'postgres' };

describe('k8s/local-data', () => {
  const manifests = () => renderLocalData();

  it('renders, every resource in the rotunda-data namespace and valid against the Kubernetes schemas', async () => {
    const all = manifests();
    for (const manifest of all.filter((m) => m.kind !== 'Namespace'))
      expect(manifest.metadata.namespace, `${manifest.kind} ${manifest.metadata.name}`).toBe('rotunda-data');
    await Promise.all(all.map((manifest) => validateAgainstSchema(manifest)));
  });

  it('serves every engine name the base points at rotunda-data, on the port the services call', () => {
    const external = ofKind(render('local'), 'Service').filter((s) => s.spec.type === 'ExternalName');
    expect(external.map((s) => s.metadata.name).sort()).toEqual(Object.keys(ENGINE_PORTS).sort());
    for (const name of external) {
      const [service, namespace] = String(name.spec.externalName).split('.');
      expect(namespace, name.metadata.name).toBe('rotunda-data');
      const target = ofKind(manifests(), 'Service').find((s) => s.metadata.name === service);
      expect(target, `Service ${service}`).toBeDefined();
      expect(target?.spec.ports.map((port: { port: number }) => port.port)).toContain(
        ENGINE_PORTS[name.metadata.name],
      );
      // It selects the pods of a Deployment here.
      const selected = ofKind(manifests(), 'Deployment').filter((d: Manifest) =>
        Object.entries(target?.spec.selector ?? {}).every(
          ([key, value]) => d.spec.template.metadata.labels[key] === value,
        ),
      );
      expect(selected, `pods of Service ${service}`).toHaveLength(1);
    }
  });

  it('runs each engine on the image docker-compose.yml runs it on', () => {
    const compose = parse(readRepoFile('docker-compose.yml'), { merge: true }) as {
      services: Record<string, { image: string }>;
    };
    for (const { owner, template } of podTemplates(manifests())) {
      const service = COMPOSE_SERVICE[owner.metadata.name] ?? owner.metadata.name;
      expect(
        template.spec.containers.map((c: { image: string }) => c.image),
        owner.metadata.name,
      ).toEqual([compose.services[service]?.image]);
    }
  });
});
