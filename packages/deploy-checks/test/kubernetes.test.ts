// The Kubernetes manifests, as kubectl renders each overlay: valid against the Kubernetes schemas, images built
// here or pinned, Services and budgets selecting real pods, probes and limits on every container, network
// policies allowing exactly the calls the configuration makes (services and engines), the Ingress's routes, the
// migrate Job, the digests' CronJob, each process's environment accepted by its own configuration schema, and
// demo data in the local overlay only.
import { readdirSync } from 'node:fs';
import { callersOf, drainConfigSchema, SERVICE_CALLS } from '@rotunda/service-kit';
import { describe, expect, it } from 'vitest';
import { remotesConfig } from '../../../gateway/src/http/web.ts';
import { kubernetesBudget } from './support/budget.ts';
import {
  type Container,
  containersOf,
  environmentOf,
  exampleSecretKeys,
  type Manifest,
  OVERLAYS,
  ofKind,
  podTemplates,
  render,
  validateAgainstSchema,
} from './support/kustomize.ts';
import {
  DEPLOYABLES,
  deployable,
  grpcPortOf,
  imageProblem,
  readRepoFile,
  repoPath,
  SERVICE_SCHEMAS,
  schemaKeys,
  splitImage,
} from './support/repo.ts';

const SERVICES = Object.keys(SERVICE_SCHEMAS) as (keyof typeof SERVICE_SCHEMAS)[];

describe.each(OVERLAYS)('the %s overlay', (overlay) => {
  const manifests = () => render(overlay);
  const deployment = (name: string) => {
    const found = ofKind(manifests(), 'Deployment').find((d) => d.metadata.name === name);
    if (!found) throw new Error(`no Deployment ${name}`);
    return found;
  };

  it('renders with kubectl kustomize, every resource in the rotunda namespace', () => {
    const all = manifests();
    expect(all.length).toBeGreaterThan(40);
    for (const manifest of all.filter((m) => m.kind !== 'Namespace'))
      expect(manifest.metadata.namespace, `${manifest.kind} ${manifest.metadata.name}`).toBe('rotunda');
  });

  it('validates every manifest against the Kubernetes schemas', async () => {
    for (const manifest of manifests()) {
      await expect(
        validateAgainstSchema(manifest),
        `${manifest.kind} ${manifest.metadata.name}`,
      ).resolves.toBeUndefined();
    }
  });

  it('runs a Deployment of every deployable, from images built here with a release tag', () => {
    expect(
      ofKind(manifests(), 'Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual(DEPLOYABLES.map((d) => d.name).sort());
    for (const { template } of podTemplates(manifests()))
      for (const container of containersOf(template)) expect(imageProblem(container.image)).toBeNull();
  });

  it('selects existing pods and named ports with every Service and PodDisruptionBudget', () => {
    const templates = podTemplates(manifests());
    const matches = (selector: Record<string, string>) =>
      templates.filter(({ template }) =>
        Object.entries(selector).every(([key, value]) => template.metadata.labels?.[key] === value),
      );
    for (const service of ofKind(manifests(), 'Service')) {
      if (service.spec.type === 'ExternalName') continue;
      const selected = matches(service.spec.selector ?? {});
      expect(selected.length, `Service ${service.metadata.name} selects no pods`).toBeGreaterThan(0);
      for (const port of service.spec.ports) {
        const names = selected.flatMap(({ template }) =>
          containersOf(template).flatMap((c) => (c.ports ?? []).map((p) => p.name)),
        );
        expect(names, `Service ${service.metadata.name} port ${port.name}`).toContain(port.targetPort);
      }
    }
    const budgets = ofKind(manifests(), 'PodDisruptionBudget');
    for (const d of ofKind(manifests(), 'Deployment')) {
      const budget = budgets.find((b) =>
        Object.entries(b.spec.selector.matchLabels).every(
          ([key, value]) => d.spec.template.metadata.labels[key] === value,
        ),
      );
      expect(budget, `PodDisruptionBudget for ${d.metadata.name}`).toBeDefined();
    }
  });

  it('autoscales the gateway and every service', () => {
    const autoscalers = ofKind(manifests(), 'HorizontalPodAutoscaler');
    for (const name of ['gateway', ...SERVICES]) {
      const hpa = autoscalers.find((h) => h.spec.scaleTargetRef.name === name);
      expect(hpa, `HorizontalPodAutoscaler for ${name}`).toBeDefined();
      expect(hpa?.spec.scaleTargetRef.kind).toBe('Deployment');
      expect(hpa?.spec.minReplicas).toBeLessThanOrEqual(hpa?.spec.maxReplicas);
      // A replica count in the Deployment would fight the autoscaler on every apply.
      expect(deployment(name).spec.replicas, name).toBeUndefined();
    }
  });

  it('gives every container resource requests and limits, probes and a non-root, read-only user', () => {
    for (const { owner, template } of podTemplates(manifests())) {
      const pod = template.spec;
      expect(pod.securityContext?.runAsNonRoot, owner.metadata.name).toBe(true);
      for (const container of containersOf(template)) {
        const where = `${owner.metadata.name}/${container.name}`;
        for (const kind of ['requests', 'limits'])
          for (const resource of ['cpu', 'memory'])
            expect(container.resources?.[kind]?.[resource], `${where} ${kind}.${resource}`).toBeDefined();
        expect(container.securityContext?.allowPrivilegeEscalation, where).toBe(false);
        expect(container.securityContext?.readOnlyRootFilesystem, where).toBe(true);
        if (owner.kind === 'Deployment') {
          expect(container.readinessProbe, `${where} readinessProbe`).toBeDefined();
          expect(container.livenessProbe, `${where} livenessProbe`).toBeDefined();
        }
      }
    }
  });

  it('takes a gateway out of rotation only when the gateway itself cannot answer, not when one service is down', () => {
    const [container] = deployment('gateway').spec.template.spec.containers as Container[];
    expect(container?.readinessProbe?.httpGet?.path).toBe('/readyz');
  });

  it("probes each service's grpc.health.v1 on its own port, natively", () => {
    for (const name of SERVICES) {
      const [container] = deployment(name).spec.template.spec.containers as Container[];
      const port = grpcPortOf(name);
      expect(container?.readinessProbe?.grpc?.port, name).toBe(port);
      expect(container?.startupProbe?.grpc?.port, name).toBe(port);
      expect(container?.ports?.[0]?.containerPort, name).toBe(port);
    }
  });

  it('serves each gRPC service headless, its callers naming it dns:///<name>:<port> to balance over every pod', () => {
    for (const name of SERVICES) {
      const service = ofKind(manifests(), 'Service').find((s) => s.metadata.name === name);
      expect(service?.spec.clusterIP, `Service ${name}`).toBe('None');
    }
    let addresses = 0;
    for (const d of ofKind(manifests(), 'Deployment'))
      for (const container of d.spec.template.spec.containers as Container[])
        for (const entry of container.env ?? []) {
          if (!entry.name.endsWith('_SERVICE_ADDR')) continue;
          const [, target, port] = /^dns:\/\/\/([a-z]+):(\d+)$/.exec(entry.value ?? '') ?? [];
          const where = `${d.metadata.name}: ${entry.name}=${entry.value}`;
          expect(SERVICES, where).toContain(target);
          expect(Number(port), where).toBe(grpcPortOf(target as (typeof SERVICES)[number]));
          addresses += 1;
        }
    expect(addresses).toBe(12);
  });

  it('drains before it is killed: preStop, then SIGTERM and SHUTDOWN_GRACE_MS, within the grace period', () => {
    for (const name of ['gateway', ...SERVICES]) {
      const pod = deployment(name).spec.template.spec;
      const [container] = pod.containers as Container[];
      if (!container) throw new Error(`no container in ${name}`);
      const command: string[] = container.lifecycle?.preStop?.exec?.command ?? [];
      expect(command[0], `${name} preStop`).toBe('sleep');
      const pause = Number(command[1]);
      expect(pause, `${name} preStop`).toBeGreaterThan(0);
      // As the process reads it (the service kit's drain settings).
      const drain = drainConfigSchema.parse(environmentOf(manifests(), container)).SHUTDOWN_GRACE_MS / 1000;
      expect(pod.terminationGracePeriodSeconds, name).toBeGreaterThanOrEqual(pause + drain);
      // preStop's exec runs in the image: its final stage is Debian's, which has coreutils' sleep.
      const own = deployable(name);
      const stages = [...readRepoFile(own?.dockerfile ?? '').matchAll(/^FROM (\S+)(?: AS (\S+))?$/gm)];
      const image = (stages.find((stage) => stage[2] === own?.target) ?? stages.at(-1))?.[1];
      expect(image, `${name}'s image`).toMatch(/^node:[\d.]+-(bookworm|trixie)(-slim)?$/);
    }
  });

  it("keeps each nginx pod serving while the Ingress drops it: preStop's sleep, within the grace period", () => {
    for (const { name, dockerfile } of DEPLOYABLES.filter((d) => d.kind === 'web')) {
      const pod = deployment(name).spec.template.spec;
      const [container] = pod.containers as Container[];
      const command: string[] = container?.lifecycle?.preStop?.exec?.command ?? [];
      expect(command[0], `${name} preStop`).toBe('sleep');
      expect(Number(command[1]), `${name} preStop`).toBeGreaterThan(0);
      // Kubernetes' default grace period, 30 s, leaves nginx time to finish after the pause.
      expect(pod.terminationGracePeriodSeconds ?? 30, name).toBeGreaterThan(Number(command[1]));
      // The image's final stage is Debian's nginx, which has coreutils' sleep.
      const stages = [...readRepoFile(dockerfile).matchAll(/^FROM (\S+)(?: AS (\S+))?$/gm)];
      expect(stages.at(-1)?.[1], `${name}'s image`).toMatch(/^nginx:[\d.]+-(bookworm|trixie)$/);
    }
  });

  it('serves Prometheus metrics on every Node process at METRICS_PORT, declared and annotated for scraping', () => {
    for (const name of ['gateway', ...SERVICES]) {
      const template = deployment(name).spec.template;
      const [container] = template.spec.containers as Container[];
      if (!container) throw new Error(`no container in ${name}`);
      const env = environmentOf(manifests(), container);
      const port = Number(env.METRICS_PORT);
      expect(container.ports?.find((p) => p.name === 'metrics')?.containerPort, name).toBe(port);
      expect(template.metadata.annotations, name).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(port),
        'prometheus.io/path': '/metrics',
      });
      // Traces only where an overlay names a collector.
      expect(env.OTEL_TRACES_EXPORTER, name).toBe('none');
      // The default-deny policy would keep Prometheus out: one policy lets the monitoring namespace scrape.
      const scrapable = ofKind(manifests(), 'NetworkPolicy').some(
        (p) =>
          p.spec.podSelector.matchExpressions?.some(
            (e: { key: string; operator: string; values: string[] }) =>
              e.key === 'app.kubernetes.io/name' && e.operator === 'In' && e.values.includes(name),
          ) &&
          (p.spec.ingress ?? []).some((rule: { ports?: { port: number }[] }) =>
            (rule.ports ?? []).some((p) => p.port === port),
          ),
      );
      expect(scrapable, `Prometheus may scrape ${name} on ${port}`).toBe(true);
    }
  });

  it('keeps every Postgres connection within the max_connections the postgres Service asks for, at every maximum', () => {
    const budget = kubernetesBudget(manifests());
    expect(budget.fits, budget.explanation).toBe(true);
    expect(budget.lines.map((line) => line.service).sort()).toEqual([...SERVICES].sort());
  });

  it('fails the connection budget when a pool or an autoscaler maximum is raised past it', () => {
    const raised = (change: (copy: Manifest[]) => void) => {
      const copy = structuredClone(manifests());
      change(copy);
      return kubernetesBudget(copy);
    };
    const config = (copy: Manifest[]) => {
      const map = ofKind(copy, 'ConfigMap').find((m) => m.metadata.name.startsWith('rotunda-config'));
      if (!map?.data) throw new Error('no rotunda-config');
      return map.data;
    };
    const autoscaler = (copy: Manifest[], name: string) =>
      ofKind(copy, 'HorizontalPodAutoscaler').find((h) => h.metadata.name === name)?.spec;
    expect(raised((copy) => Object.assign(config(copy), { DATABASE_POOL_SIZE: '25' })).fits).toBe(false);
    expect(raised((copy) => Object.assign(config(copy), { DATABASE_READ_POOL_SIZE: '30' })).fits).toBe(false);
    expect(raised((copy) => Object.assign(autoscaler(copy, 'profile'), { maxReplicas: 40 })).fits).toBe(
      false,
    );
    expect(kubernetesBudget(manifests()).fits).toBe(true);
  });

  it('gives every process an environment its own configuration schema accepts, and no unknown variable', () => {
    for (const target of DEPLOYABLES.filter((d) => d.schema)) {
      const [container] = deployment(target.name).spec.template.spec.containers as Container[];
      if (!container || !target.schema) throw new Error(`no container in ${target.name}`);
      const env = environmentOf(manifests(), container);
      const result = target.schema.safeParse(env);
      expect(result.error?.issues ?? [], target.name).toEqual([]);
      const known = schemaKeys(target.schema);
      for (const entry of container.env ?? [])
        expect(known, `${target.name}: ${entry.name}`).toContain(entry.name);
      if (target.kind === 'service') expect(env.MIGRATE_ON_START, target.name).toBe('false');
    }
  });

  it('seeds demo data on a local cluster only, never in production', () => {
    for (const name of SERVICES) {
      const [container] = deployment(name).spec.template.spec.containers as Container[];
      if (!container) throw new Error(`no container in ${name}`);
      expect(environmentOf(manifests(), container).SEED_DEMO, name).toBe(
        overlay === 'local' ? 'true' : 'false',
      );
    }
  });

  it('lets each pod reach the engines its configuration names, at their names and on their ports', () => {
    const engines = ofKind(manifests(), 'Service')
      .filter((s) => s.spec.type === 'ExternalName')
      .map((s) => s.metadata.name);
    const policies = ofKind(manifests(), 'NetworkPolicy');
    const defaultPorts: Record<string, number> = { 'http:': 80, 'https:': 443, 'postgresql:': 5432 };
    let checked = 0;
    for (const { owner, template } of podTemplates(manifests())) {
      const pod = template.metadata.labels['app.kubernetes.io/name'];
      const allowed = policies
        .filter((p) => p.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === pod)
        .flatMap((p) => p.spec.egress ?? [])
        .filter((rule: { to?: unknown[] }) => !rule.to)
        .flatMap((rule: { ports?: { port: number }[] }) => (rule.ports ?? []).map((p) => p.port));
      // What the process reads: its schema's settings, or the migrate step's database (every pod gets the whole
      // ConfigMap).
      // A CronJob runs a service's image with that service's configuration.
      const schema = (
        deployable(owner.metadata.name) ??
        deployable(splitImage(containersOf(template)[0]?.image ?? '').name.slice('rotunda/'.length))
      )?.schema;
      for (const container of containersOf(template)) {
        const env = environmentOf(manifests(), container);
        const reads =
          owner.kind === 'Job'
            ? Object.keys(env).filter((key) => key.endsWith('DATABASE_URL') || key === 'POSTGRES_ADMIN_URL')
            : schema
              ? schemaKeys(schema)
              : [];
        const engineKeys = ['ELASTICSEARCH_URL', 'S3_ENDPOINT', 'KEYCLOAK_URL', 'JWKS_URL'];
        for (const key of reads) {
          if (!env[key] || !(engineKeys.includes(key) || /DATABASE_URL$|^POSTGRES_ADMIN_URL$/.test(key)))
            continue;
          const url = new URL(env[key]);
          const where = `${owner.metadata.name}/${container.name}: ${key}`;
          expect(engines, where).toContain(url.hostname);
          expect(allowed, where).toContain(Number(url.port) || defaultPorts[url.protocol]);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('names the S3 server SeaweedFS, and no MinIO anywhere', () => {
    const store = ofKind(manifests(), 'Service').find((s) => s.metadata.name === 'object-store');
    expect(store?.spec.externalName).toMatch(/^seaweedfs\./);
    expect(JSON.stringify(manifests())).not.toMatch(/minio/i);
  });

  it('lets each service be called only by the deployables configured with its address', () => {
    const policies = ofKind(manifests(), 'NetworkPolicy');
    const denyAll = policies.find(
      (p) =>
        Object.keys(p.spec.podSelector).length === 0 && p.spec.policyTypes.length === 2 && !p.spec.ingress,
    );
    expect(denyAll, 'a default-deny policy').toBeDefined();
    const selects = (policy: Manifest, name: string) =>
      policy.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === name;
    for (const service of SERVICES) {
      const address = `dns:///${service}:${grpcPortOf(service)}`;
      // Deployments' pods and the CronJob's alike (the digests call auth and profile as the notification service).
      const configuredCallers = podTemplates(manifests())
        .filter(({ template }) =>
          (template.spec.containers as Container[]).some((c) =>
            (c.env ?? []).some((e) => e.name.endsWith('_SERVICE_ADDR') && e.value === address),
          ),
        )
        .map(({ template }) => template.metadata.labels['app.kubernetes.io/name'] as string)
        .sort();
      const allowedCallers = policies
        .filter((p) => selects(p, service) && p.spec.policyTypes.includes('Ingress'))
        .flatMap((p) => p.spec.ingress ?? [])
        .flatMap((rule: { from: { podSelector?: { matchLabels: Record<string, string> } }[] }) =>
          rule.from.map((peer) => peer.podSelector?.matchLabels['app.kubernetes.io/name']),
        )
        .sort();
      expect(allowedCallers, `callers of ${service}`).toEqual(configuredCallers);
      for (const caller of configuredCallers) {
        const egress = policies
          .filter((p) => selects(p, caller))
          .flatMap((p) => p.spec.egress ?? [])
          .filter((rule: { to?: { podSelector?: { matchLabels: Record<string, string> } }[] }) =>
            (rule.to ?? []).some(
              (peer) => peer.podSelector?.matchLabels['app.kubernetes.io/name'] === service,
            ),
          );
        expect(egress.length, `${caller} may call ${service}`).toBeGreaterThan(0);
        expect(egress[0].ports[0].port).toBe(grpcPortOf(service));
      }
    }
  });

  it('lets every pod given SMTP_URL reach a mail relay, and on a local cluster the example mail catcher', () => {
    const example = readRepoFile('k8s/overlays/local/secrets.env.example').match(/^SMTP_URL=(.+)$/m)?.[1];
    const expected = overlay === 'local' ? Number(new URL(example ?? '').port) : 587;
    const senders = podTemplates(manifests())
      .filter(({ template }) =>
        containersOf(template).some((c) => (c.env ?? []).some((e) => e.name === 'SMTP_URL')),
      )
      .map(({ template }) => template.metadata.labels['app.kubernetes.io/name'] as string);
    expect(senders.sort()).toEqual(['auth', 'notification', 'send-digests']);
    for (const sender of senders) {
      const ports = ofKind(manifests(), 'NetworkPolicy')
        .filter((p) => p.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === sender)
        .flatMap((p) => p.spec.egress ?? [])
        .flatMap((rule: { ports?: { port: number }[] }) => (rule.ports ?? []).map((p) => p.port));
      expect(ports, sender).toContain(expected);
    }
  });

  it('looks for due digests every hour, one run at a time, as the notification service with its environment', () => {
    const cronJobs = ofKind(manifests(), 'CronJob');
    expect(cronJobs.map((c) => c.metadata.name)).toEqual(['send-digests']);
    const [cronJob] = cronJobs;
    expect(cronJob?.spec.schedule).toBe('0 * * * *');
    expect(cronJob?.spec.concurrencyPolicy).toBe('Forbid');
    const job = cronJob?.spec.jobTemplate.spec;
    expect(job.activeDeadlineSeconds).toBeLessThan(3600);
    const pod = job.template.spec;
    const [container] = pod.containers as Container[];
    if (!container) throw new Error('no container in send-digests');
    expect(container.command).toEqual(['node', 'src/send-digests.ts']);
    const service = deployment('notification').spec.template.spec;
    const [serving] = service.containers as Container[];
    if (!serving) throw new Error('no container in notification');
    expect(splitImage(container.image).name).toBe(splitImage(serving.image).name);
    expect(container.image).toBe(serving.image);
    // The service's own settings, less the port it serves on: the run serves nothing.
    const { GRPC_PORT: _, ...serviceEnv } = environmentOf(manifests(), serving);
    expect(environmentOf(manifests(), container)).toEqual(serviceEnv);
    const result = SERVICE_SCHEMAS.notification.safeParse(environmentOf(manifests(), container));
    expect(result.error?.issues ?? []).toEqual([]);
    expect(pod.securityContext).toEqual(service.securityContext);
    expect(container.securityContext).toEqual(serving.securityContext);
    expect(pod.automountServiceAccountToken).toBe(false);
  });

  it('routes the REST and identity paths and the drawn pages to the gateway, each remote to its nginx, the rest to the shell', () => {
    const ingress = ofKind(manifests(), 'Ingress').find((i) => i.metadata.name === 'rotunda');
    const routes = Object.fromEntries(
      ingress?.spec.rules.flatMap((rule: { http: { paths: unknown[] } }) =>
        (rule.http.paths as { path: string; pathType: string; backend: { service: { name: string } } }[]).map(
          (p) => [`${p.pathType} ${p.path}`, p.backend.service.name],
        ),
      ),
    );
    expect(routes).toEqual({
      'Prefix /auth': 'gateway',
      'Prefix /api': 'gateway',
      'Prefix /media': 'gateway',
      'Prefix /realms': 'gateway',
      'Exact /healthz': 'gateway',
      'Exact /app-config.json': 'gateway',
      // The pages the gateway draws (ADR 0053).
      'Exact /public-square': 'gateway',
      'Prefix /public-square/post': 'gateway',
      'Exact /sitemap.xml': 'gateway',
      'Exact /robots.txt': 'gateway',
      'Exact /post-card.png': 'gateway',
      'Prefix /mf/feed': 'mf-feed',
      'Prefix /mf/directory': 'mf-directory',
      'Prefix /mf/organizations': 'mf-organizations',
      'Prefix /mf/profile': 'mf-profile',
      'Prefix /': 'shell',
    });
  });

  it('tries a hashed file that one pod lacks on the next pod, and never retries anything else', () => {
    const ingresses = ofKind(manifests(), 'Ingress');
    const retried = ingresses.filter((i) =>
      i.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-next-upstream']?.includes('http_404'),
    );
    expect(retried.map((i) => i.metadata.name)).toEqual(['rotunda-static']);
    const paths = retried[0]?.spec.rules.flatMap((rule: { http: { paths: { path: string }[] } }) =>
      rule.http.paths.map((p) => p.path),
    );
    expect(paths.sort()).toEqual(
      [
        '/static',
        ...['feed', 'directory', 'organizations', 'profile'].map((app) => `/mf/${app}/static`),
      ].sort(),
    );
    // The same public host and TLS as the main routes, so the longer prefixes win in the same server block.
    const main = ingresses.find((i) => i.metadata.name === 'rotunda');
    expect(retried[0]?.spec.rules[0].host).toBe(main?.spec.rules[0].host);
    expect(retried[0]?.spec.tls).toEqual(main?.spec.tls);
  });

  it("migrates every service's schema in a Job, in that service's image, before rollout", () => {
    const [job] = ofKind(manifests(), 'Job');
    const withMigrations = SERVICES.filter(
      (name) => readdirSync(repoPath('services', name, 'prisma', 'migrations')).length > 0,
    );
    const [roles, ...containers] = containersOf(job?.spec.template);
    // First the roles (ADR 0039), from the very URLs the pods and the migrations are given.
    expect(roles?.command).toEqual(['node', '/app/docker/db-roles.ts']);
    const rolesEnv = roles ? environmentOf(manifests(), roles) : {};
    expect(containers.map((c) => c.command?.at(-1)).sort()).toEqual([...withMigrations].sort());
    for (const container of containers) {
      const service = container.command?.at(-1) ?? '';
      expect(container.command).toEqual(['node', '/app/docker/migrate.ts', service]);
      expect(container.image.startsWith(`rotunda/${service}:`)).toBe(true);
      const env = environmentOf(manifests(), container);
      expect(env.MIGRATION_DATABASE_URL, service).toBe(
        rolesEnv[`${service.toUpperCase()}_MIGRATION_DATABASE_URL`],
      );
      expect(env, `${service}: the migration needs no other role`).not.toHaveProperty('DATABASE_URL');
    }
    // `kubectl apply -l rotunda/rollout-step=migrate` applies the Job with what it needs (k8s/README.md).
    const step = manifests().filter((m) => m.metadata.labels?.['rotunda/rollout-step'] === 'migrate');
    expect(step.map((m) => m.kind)).toEqual(expect.arrayContaining(['Namespace', 'Job']));
    for (const container of containers)
      for (const entry of container.env ?? []) {
        const secret = entry.valueFrom?.secretKeyRef?.name;
        const rendered = ofKind(manifests(), 'Secret').find((s) => s.metadata.name === secret);
        if (rendered) expect(step).toContain(rendered);
      }
    for (const map of ofKind(manifests(), 'ConfigMap').filter((m) =>
      containers.some((c) => c.envFrom?.some((e) => e.configMapRef?.name === m.metadata.name)),
    ))
      expect(step).toContain(map);
    // The Services it reaches, too: on a fresh namespace nothing else has made them yet.
    const hosts = new Set(
      [roles, ...containers].flatMap((container) =>
        Object.values(container ? environmentOf(manifests(), container) : {})
          .filter((value) => /^postgres(ql)?:\/\//.test(value))
          .map((value) => new URL(value).hostname),
      ),
    );
    expect(hosts.size).toBeGreaterThan(0);
    for (const host of hosts)
      expect(
        step.find((m) => m.kind === 'Service' && m.metadata.name === host),
        `the Service ${host} the Job connects to`,
      ).toBeDefined();
  });

  it("runs each service as its own database role, with its own key when it calls others and its callers' keys", () => {
    const [job] = ofKind(manifests(), 'Job');
    const [roles] = containersOf(job?.spec.template);
    const admin = new URL((roles ? environmentOf(manifests(), roles) : {}).POSTGRES_ADMIN_URL ?? '');
    const users = new Set<string>();
    for (const name of SERVICES) {
      const [container] = deployment(name).spec.template.spec.containers as Container[];
      if (!container) throw new Error(`no container in ${name}`);
      const env = environmentOf(manifests(), container);
      const user = new URL(env.DATABASE_URL ?? '').username;
      expect(user, `${name}: never the superuser`).not.toBe(admin.username);
      expect(users.has(user), `${name}: ${user} is no other service's role`).toBe(false);
      users.add(user);
      // Only the Job may change a schema or make roles.
      expect(env, name).not.toHaveProperty('MIGRATION_DATABASE_URL');
      expect(env, name).not.toHaveProperty('POSTGRES_ADMIN_URL');
      const calls = SERVICE_CALLS[name as keyof typeof SERVICE_CALLS];
      expect(Boolean(env.SERVICE_TOKEN_PRIVATE_KEY), `${name} calls ${calls.join(', ') || 'nobody'}`).toBe(
        calls.length > 0,
      );
      const trusted = (env.SERVICE_TOKEN_PUBLIC_KEYS ?? '').split(',').filter(Boolean);
      expect(trusted.map((entry) => entry.split(':')[0]).sort(), name).toEqual(callersOf(name).sort());
    }
  });

  it('commits no secret value: the Secret is made from the gitignored secrets.env, or exists beforehand', () => {
    const secrets = ofKind(manifests(), 'Secret');
    if (overlay === 'production') expect(secrets).toEqual([]);
    else expect(Object.keys(secrets[0]?.data ?? {}).sort()).toEqual(exampleSecretKeys().sort());
    expect(readRepoFile('k8s/overlays/local/.gitignore')).toMatch(/^secrets\.env$/m);
    const referenced = new Set(
      podTemplates(manifests()).flatMap(({ template }) =>
        containersOf(template).flatMap((c) => (c.env ?? []).map((e) => e.valueFrom?.secretKeyRef?.key)),
      ),
    );
    referenced.delete(undefined);
    expect([...referenced].sort()).toEqual(exampleSecretKeys().sort());
  });

  it("serves the shell the same remotes config as the shell's image and the gateway", () => {
    const map = ofKind(manifests(), 'ConfigMap').find((m) => m.metadata.name.startsWith('rotunda-remotes'));
    const remotes = JSON.parse(map?.data?.['remotes.json'] ?? '{}');
    expect(remotes).toEqual(remotesConfig());
    expect(JSON.parse(readRepoFile('docker/web/remotes.json'))).toEqual(remotesConfig());
    expect(deployable('shell')).toBeDefined();
  });
});
