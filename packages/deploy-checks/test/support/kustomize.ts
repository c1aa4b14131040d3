// Renders a k8s/ overlay with kubectl's built-in kustomize, as an operator would, and reads the manifests.
// The local overlay's Secret comes from a gitignored secrets.env: the render works on a copy of k8s/ with one
// written from test values, so that the check builds on a fresh clone.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testCallers } from '@rotunda/service-kit/testing';
import { parseAllDocuments } from 'yaml';
import { repoPath } from './repo.ts';

export const OVERLAYS = ['local', 'production'] as const;

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field against the Kubernetes schemas
  spec?: any;
  data?: Record<string, string>;
  type?: string;
}

/** Values for the Secret's keys, valid for each key's schema (URLs where a URL is expected). */
const SERVICE_NAMES = ['auth', 'profile', 'org', 'post', 'news', 'notification'];
const servicePublicKeys = (callers: string[]) =>
  callers.map((caller) => `${caller}:${testCallers.serviceKeys.publicKey}`).join(',');

export const TEST_SECRET_VALUES: Record<string, string> = {
  POSTGRES_ADMIN_URL: 'postgresql://rotunda:test-password@postgres:5432/rotunda',
  ...Object.fromEntries(
    SERVICE_NAMES.flatMap((name) => [
      [`${name.toUpperCase()}_DATABASE_URL`, `postgresql://${name}:test-${name}@postgres:5432/rotunda`],
      [
        `${name.toUpperCase()}_MIGRATION_DATABASE_URL`,
        `postgresql://${name}_owner:test-${name}-owner@postgres:5432/rotunda`,
      ],
    ]),
  ),
  PROFILE_SERVICE_TOKEN_PRIVATE_KEY: testCallers.serviceKeys.privateKey,
  POST_SERVICE_TOKEN_PRIVATE_KEY: testCallers.serviceKeys.privateKey,
  NOTIFICATION_SERVICE_TOKEN_PRIVATE_KEY: testCallers.serviceKeys.privateKey,
  AUTH_SERVICE_TOKEN_PUBLIC_KEYS: servicePublicKeys(['profile', 'notification']),
  ORG_SERVICE_TOKEN_PUBLIC_KEYS: servicePublicKeys(['profile', 'post']),
  PROFILE_SERVICE_TOKEN_PUBLIC_KEYS: servicePublicKeys(['post', 'notification']),
  ELASTICSEARCH_URL: 'http://elasticsearch:9200',
  S3_ACCESS_KEY: 'test-access-key',
  S3_SECRET_KEY: 'test-secret-key',
  KEYCLOAK_CLIENT_SECRET: 'test-keycloak-client-secret',
  CAPTCHA_HMAC_KEY: 'test-captcha-hmac-key-0123456789',
  SMTP_URL: 'smtp://smtp:1025',
  CALLER_TOKEN_PRIVATE_KEY: testCallers.keys.privateKey,
  CALLER_TOKEN_PUBLIC_KEY: testCallers.keys.publicKey,
};

/** The Secret's keys as the local overlay's secrets.env.example lists them. */
export function exampleSecretKeys(): string[] {
  return readFileSync(repoPath('k8s/overlays/local/secrets.env.example'), 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z0-9_]+=/.test(line))
    .map((line) => line.slice(0, line.indexOf('=')));
}

function kubectl(args: string[]): string {
  const result = spawnSync('kubectl', args, { encoding: 'utf8', timeout: 60_000 });
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT')
    throw new Error(
      'kubectl is not installed: the Kubernetes checks render k8s/ with its built-in kustomize. ' +
        'Install it (Debian: apt-get install kubernetes-client; .ci/run does this).',
    );
  if (result.status !== 0) throw new Error(`kubectl ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

const rendered = new Map<string, Manifest[]>();

/**
 * Renders a kustomization of k8s/ once per test file, on a copy of k8s/ that `prepare` fills with what the repo does
 * not hold (the gitignored inputs), with kubectl's built-in kustomize and the flags given.
 */
function renderCopy(name: string, folder: string, prepare: (copy: string) => void, flags: string[] = []) {
  const cached = rendered.get(name);
  if (cached) return cached;
  const copy = mkdtempSync(join(tmpdir(), 'rotunda-k8s-'));
  try {
    cpSync(repoPath('k8s'), join(copy, 'k8s'), { recursive: true });
    prepare(copy);
    const output = kubectl(['kustomize', ...flags, join(copy, folder)]);
    const manifests = parseAllDocuments(output).map((doc) => {
      if (doc.errors.length > 0) throw doc.errors[0];
      return doc.toJS() as Manifest;
    });
    rendered.set(name, manifests);
    return manifests;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** The overlay's manifests, rendered once per test file. */
export function render(overlay: (typeof OVERLAYS)[number]): Manifest[] {
  return renderCopy(overlay, join('k8s/overlays', overlay), (copy) =>
    writeFileSync(
      join(copy, 'k8s/overlays/local/secrets.env'),
      exampleSecretKeys()
        .map((key) => `${key}=${TEST_SECRET_VALUES[key] ?? `test-${key.toLowerCase()}`}`)
        .join('\n'),
    ),
  );
}

/**
 * k8s/local-data, the engines of a local cluster, rendered as its header says (it reads the realm and the search
 * face's code from outside its folder), on a copy holding those files and test values for its gitignored inputs.
 */
export function renderLocalData(): Manifest[] {
  return renderCopy(
    'local-data',
    'k8s/local-data',
    (copy) => {
      for (const file of [
        'services/auth/keycloak/realm-rotunda.json',
        'packages/engines/src/search-proxy.ts',
        'packages/engines/src/search-proxy-main.ts',
      ])
        cpSync(repoPath(file), join(copy, file));
      writeFileSync(
        join(copy, 'k8s/local-data/secrets.env'),
        ['POSTGRES_PASSWORD', 'KEYCLOAK_DB_PASSWORD', 'KEYCLOAK_ADMIN_PASSWORD', 'ROTUNDA_AUTH_CLIENT_SECRET']
          .map((key) => `${key}=test-${key.toLowerCase()}`)
          .join('\n'),
      );
      writeFileSync(join(copy, 'k8s/local-data/s3-identities.json'), '{"identities":[]}');
    },
    ['--load-restrictor', 'LoadRestrictionsNone'],
  );
}

/** Checks a manifest against the Kubernetes schemas (kubernetes-models), as the API server would. */
export async function validateAgainstSchema(manifest: Manifest): Promise<void> {
  const [group, version] = manifest.apiVersion.includes('/')
    ? manifest.apiVersion.split('/')
    : [undefined, manifest.apiVersion];
  const path = `kubernetes-models/${group ? `${group}/` : ''}${version}/${manifest.kind}`;
  const module = (await import(path)) as Record<string, new (value: unknown) => { validate(): void }>;
  const Model = module[manifest.kind];
  if (!Model) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`);
  // kustomize folds long base64 values over several lines; the API server's decoder skips line breaks, the
  // schema's pattern does not.
  const data =
    manifest.data && manifest.kind === 'Secret'
      ? Object.fromEntries(
          Object.entries(manifest.data).map(([key, value]) => [key, value.replace(/\s/g, '')]),
        )
      : manifest.data;
  new Model({ ...manifest, ...(data && { data }) }).validate();
}

export const ofKind = (manifests: Manifest[], kind: string) => manifests.filter((m) => m.kind === kind);

/** Every pod template: Deployments', Jobs' and CronJobs' (their Jobs' pods). */
export function podTemplates(manifests: Manifest[]) {
  return manifests
    .filter((m) => m.kind === 'Deployment' || m.kind === 'Job' || m.kind === 'CronJob')
    .map((m) => ({
      owner: m,
      template: m.kind === 'CronJob' ? m.spec.jobTemplate.spec.template : m.spec.template,
    }));
}

export type Container = {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string } }[];
  // biome-ignore lint/suspicious/noExplicitAny: probes and resources are checked field by field
  [field: string]: any;
};

export const containersOf = (template: Manifest['spec']): Container[] => [
  ...(template.spec.initContainers ?? []),
  ...template.spec.containers,
];

/** A container's environment as the process sees it: ConfigMaps, then Secrets and values (env wins). */
export function environmentOf(manifests: Manifest[], container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  const secrets = ofKind(manifests, 'Secret');
  for (const source of container.envFrom ?? []) {
    const name = source.configMapRef?.name;
    const map = ofKind(manifests, 'ConfigMap').find((m) => m.metadata.name === name);
    if (!map) throw new Error(`${container.name}: ConfigMap ${name} is not in the overlay`);
    Object.assign(env, map.data);
  }
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom?.secretKeyRef;
    if (ref) {
      const secret = secrets.find((s) => s.metadata.name === ref.name);
      // An external Secret (production): the keys it must hold are the local example's.
      const value = secret
        ? Buffer.from(secret.data?.[ref.key] ?? '', 'base64').toString('utf8')
        : TEST_SECRET_VALUES[ref.key];
      if (value === undefined || (secret && secret.data?.[ref.key] === undefined))
        throw new Error(`${container.name}: Secret ${ref.name} has no key ${ref.key}`);
      env[entry.name] = value;
    } else {
      env[entry.name] = entry.value ?? '';
    }
  }
  return env;
}
