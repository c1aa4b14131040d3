// The local overlay on a real single-node cluster (npm run test:cluster brings it up first): the Ingress answers
// every path the browser uses, a member signs in through it, each kind of Deployment rolls to a new ReplicaSet under
// load without losing a request, and the autoscalers read their metrics while the disruption budgets count pods.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const REPO = join(import.meta.dirname, '../../..');
/** The Ingress controller's port on this machine (cluster.sh's CLUSTER_INGRESS_PORT); its rules name no host. */
const INGRESS_URL = `http://127.0.0.1:${process.env.CLUSTER_INGRESS_PORT ?? '80'}`;
const MEMBER = { email: 'member@demo.ca.gov', password: 'Member#2024x' };

/** kubectl of the cluster's own version, as cluster.sh links it, on the cluster's admin credentials. */
async function kubectl(...args: string[]): Promise<string> {
  const { stdout } = await run(
    join(REPO, '.data/cluster/kubectl'),
    ['--kubeconfig', join(REPO, '.data/cluster/admin.kubeconfig'), ...args],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

/** The pods of a Deployment, as `pod/<name>`. */
async function podsOf(deployment: string): Promise<string[]> {
  const names = await kubectl(
    '-n',
    'rotunda',
    'get',
    'pods',
    '-l',
    `app.kubernetes.io/name=${deployment}`,
    '-o',
    'name',
  );
  return names.split('\n').filter((name) => name !== '');
}

async function signIn(): Promise<string> {
  const login = await fetch(`${INGRESS_URL}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(MEMBER),
  });
  expect(login.status, await login.clone().text()).toBe(200);
  return ((await login.json()) as { token: string }).token;
}

describe('the local overlay on a real cluster', () => {
  it('answers through the Ingress: the shell, each remote, the REST paths, the identity endpoints, health', async () => {
    const shell = await fetch(`${INGRESS_URL}/`);
    expect(shell.status).toBe(200);
    expect(shell.headers.get('content-type')).toContain('text/html');
    const remotes = (await (await fetch(`${INGRESS_URL}/remotes.json`)).json()) as Record<string, string>;
    expect(Object.keys(remotes).sort()).toEqual([
      'mf_directory',
      'mf_feed',
      'mf_organizations',
      'mf_profile',
    ]);
    for (const manifest of Object.values(remotes)) {
      const answer = await fetch(`${INGRESS_URL}${manifest}`);
      expect(answer.status, manifest).toBe(200);
      // A hashed file the manifest names, through the static Ingress (the one that retries a 404 on another pod).
      const { metaData } = (await answer.json()) as {
        metaData: { remoteEntry: { path: string; name: string } };
      };
      const entry = `${manifest.replace(/mf-manifest\.json$/, '')}${metaData.remoteEntry.path}${metaData.remoteEntry.name}`;
      expect((await fetch(`${INGRESS_URL}${entry.replace(/\/+/g, '/')}`)).status, entry).toBe(200);
    }
    // Every service SERVING with its dependencies: moments after the rollout, once each has checked its own.
    await expect
      .poll(async () => (await fetch(`${INGRESS_URL}/healthz`)).status, { timeout: 120_000, interval: 2_000 })
      .toBe(200);
    const config = (await (await fetch(`${INGRESS_URL}/app-config.json`)).json()) as Record<string, unknown>;
    expect(JSON.stringify(config)).toContain('http://rotunda.localhost');
    const discovery = await fetch(`${INGRESS_URL}/realms/rotunda/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect((await (await fetch(`${INGRESS_URL}/api/news`)).json()) as unknown[]).toBeInstanceOf(Array);
    // A deep link is the shell's page, not a 404.
    expect((await fetch(`${INGRESS_URL}/organizations`)).status).toBe(200);
  });

  it('signs a demo member in through the Ingress and reads their own profile (gateway, auth, Keycloak, profile)', async () => {
    const token = await signIn();
    const check = await fetch(`${INGRESS_URL}/api/profiles/user-check`, {
      headers: { 'x-auth-token': token },
    });
    expect(check.status).toBe(200);
    expect(await check.json()).toEqual([expect.objectContaining({ user_id: expect.any(String) })]);
  });

  it.each([
    ['gateway', 'the REST paths'],
    ['profile', 'a service the gateway calls over gRPC'],
    ['shell', "the shell's nginx"],
  ])('rolls %s (%s) to a new ReplicaSet under load without losing a request', async (deployment) => {
    const token = await signIn();
    // What members' browsers ask. Not /healthz: a new gateway pod answers it 503 until it has heard from every
    // service, as an orchestrator's probe of the whole product should (its own readiness is /readyz).
    const paths: [string, RequestInit][] = [
      ['/api/news', {}],
      ['/', {}],
      ['/api/profiles/user-check', { headers: { 'x-auth-token': token } }],
      ['/api/orgs/organization-groups', { headers: { 'x-auth-token': token } }],
    ];
    const statuses = new Map<string, number>();
    const latencies: number[] = [];
    let rolling = true;
    // Four members' browsers at once, each asking again as soon as it has an answer.
    const clients = Array.from({ length: 4 }, async (_, client) => {
      for (let turn = client; rolling; turn += 1) {
        const [path, init] = paths[turn % paths.length] ?? ['/', {}];
        const started = performance.now();
        const answer = await fetch(`${INGRESS_URL}${path}`, { ...init, signal: AbortSignal.timeout(15_000) })
          .then(async (response) => {
            await response.arrayBuffer();
            return response.ok ? 'ok' : `${path} ${response.status}`;
          })
          .catch((error: unknown) => `${path} ${error instanceof Error ? error.message : String(error)}`);
        latencies.push(performance.now() - started);
        statuses.set(answer, (statuses.get(answer) ?? 0) + 1);
      }
    });
    await sleep(3_000);
    const before = await podsOf(deployment);
    await kubectl('-n', 'rotunda', 'rollout', 'restart', `deployment/${deployment}`);
    await kubectl('-n', 'rotunda', 'rollout', 'status', `deployment/${deployment}`, '--timeout=8m');
    // The old pod drains (preStop, then SIGTERM and the in-flight calls): keep asking until it is gone.
    await expect
      .poll(
        async () =>
          (await kubectl('-n', 'rotunda', 'get', '--ignore-not-found', '-o', 'name', ...before)).trim(),
        {
          timeout: 90_000,
          interval: 2_000,
        },
      )
      .toBe('');
    await sleep(3_000);
    rolling = false;
    await Promise.all(clients);
    const after = await podsOf(deployment);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((pod) => before.includes(pod))).toEqual([]);
    latencies.sort((a, b) => a - b);
    const at = (share: number) => Math.round(latencies[Math.floor(share * (latencies.length - 1))] ?? 0);
    console.log(
      `rollout of ${deployment}: ${latencies.length} requests, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(latencies.length).toBeGreaterThan(100);
    expect(Object.fromEntries(statuses)).toEqual({ ok: latencies.length });
  });

  it('accepts every autoscaler and disruption budget: each HPA reads its CPU use, each budget counts its pods', async () => {
    // An autoscaler for each Node Deployment (the nginx ones serve files and stay as the overlay sets them), a
    // budget for every Deployment.
    const deployments = JSON.parse(await kubectl('-n', 'rotunda', 'get', 'deployments', '-o', 'json')) as {
      items: { metadata: { name: string } }[];
    };
    const names = deployments.items.map((item) => item.metadata.name).sort();
    await expect
      .poll(
        async () => {
          const hpas = JSON.parse(await kubectl('-n', 'rotunda', 'get', 'hpa', '-o', 'json')) as {
            items: {
              metadata: { name: string };
              status: { conditions?: { type: string; status: string }[]; currentMetrics?: unknown[] };
            }[];
          };
          return hpas.items
            .filter((hpa) =>
              hpa.status.conditions?.some((c) => c.type === 'ScalingActive' && c.status === 'True'),
            )
            .map((hpa) => hpa.metadata.name)
            .sort();
        },
        { timeout: 180_000, interval: 5_000 },
      )
      .toEqual(names.filter((name) => !/^(shell|mf-)/.test(name)));
    const budgets = JSON.parse(await kubectl('-n', 'rotunda', 'get', 'pdb', '-o', 'json')) as {
      items: { metadata: { name: string }; status: { expectedPods: number; currentHealthy: number } }[];
    };
    expect(budgets.items.map((budget) => budget.metadata.name).sort()).toEqual(names);
    for (const budget of budgets.items) {
      expect(budget.status.expectedPods, budget.metadata.name).toBeGreaterThan(0);
      expect(budget.status.currentHealthy, budget.metadata.name).toBe(budget.status.expectedPods);
    }
  });
});
