// The search engine's production settings (ADR 0058): every process with an index gets the same SEARCH_* settings in
// docker-compose.yml and in each Kubernetes overlay, its configuration schema parses them to values that keep search
// answering (a refresh interval, at least one replica, one shard), and each setting carries its reason in a comment.
import { searchConfigSchema } from '@rotunda/search';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { containersOf, environmentOf, OVERLAYS, ofKind, render } from './support/kustomize.ts';
import { readRepoFile, SERVICE_SCHEMAS } from './support/repo.ts';

const SETTINGS = [
  'SEARCH_SHARDS',
  'SEARCH_REPLICAS',
  'SEARCH_REFRESH_INTERVAL',
  'SEARCH_REBUILD_CONCURRENCY',
  'SEARCH_CONNECTIONS',
] as const;
/** The services whose configuration holds a search index. */
const WITH_INDEX = ['org', 'profile', 'post'] as const;

/** The settings as a service's schema reads them (the search part of it). */
const searchSettings = (env: Record<string, unknown>) => {
  const config = searchConfigSchema({ schema: 'search', index: 'index' }).parse(env);
  return Object.fromEntries(SETTINGS.map((name) => [name, config[name]]));
};

const compose = parse(readRepoFile('docker-compose.yml'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, string> }>;
};

/** What production runs with: what docker-compose.yml gives the profile service. */
const expected = searchSettings(compose.services.profile?.environment ?? {});

describe('search settings', () => {
  it('keep search answering: one shard, a replica, a refresh interval, a bounded pool', () => {
    expect(expected).toEqual({
      SEARCH_SHARDS: 1,
      SEARCH_REPLICAS: 1,
      SEARCH_REFRESH_INTERVAL: expect.stringMatching(/^\d+(ms|s)$/),
      SEARCH_REBUILD_CONCURRENCY: expect.any(Number),
      SEARCH_CONNECTIONS: expect.any(Number),
    });
    expect(expected.SEARCH_CONNECTIONS).toBeLessThanOrEqual(64);
  });

  it.each(WITH_INDEX)('are the same for %s in docker-compose.yml', (service) => {
    const env = compose.services[service]?.environment ?? {};
    expect(env.ELASTICSEARCH_URL).toBeTruthy();
    expect(searchSettings(env)).toEqual(expected);
  });

  it.each(OVERLAYS)('are the same for every process with an index in the %s overlay', (overlay) => {
    const manifests = render(overlay);
    const checked: string[] = [];
    for (const deployment of ofKind(manifests, 'Deployment')) {
      const service = deployment.metadata.name as (typeof WITH_INDEX)[number];
      if (!WITH_INDEX.includes(service)) continue;
      for (const container of containersOf(deployment.spec.template)) {
        const env = environmentOf(manifests, container);
        if (!env.ELASTICSEARCH_URL) continue;
        // The whole schema accepts the environment, and its search part is production's.
        SERVICE_SCHEMAS[service].parse(env);
        expect(searchSettings(env), `${overlay} ${service}`).toEqual(expected);
        checked.push(service);
      }
    }
    expect(checked.sort()).toEqual([...WITH_INDEX].sort());
  });

  it.each([
    ['docker-compose.yml', (name: string) => new RegExp(`^\\s*${name}:`)],
    ['k8s/base/kustomization.yaml', (name: string) => new RegExp(`^\\s*- ${name}=`)],
  ] as const)('each carry their reason in a comment above them in %s', (file, line) => {
    const lines = readRepoFile(file).split('\n');
    for (const name of SETTINGS) {
      const at = lines.findIndex((text) => line(name).test(text));
      expect(at, `${file}: ${name}`).toBeGreaterThan(0);
      expect(lines[at - 1]?.trim().startsWith('#'), `${file}: a comment above ${name}`).toBe(true);
    }
  });
});
