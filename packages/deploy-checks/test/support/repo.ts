// What the deployment checks know about the repository: its deployables (each with the Dockerfile and build
// arguments its image is built with and, for Node processes, the configuration schema it validates at start-up),
// and readers for the files under test.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverConfigSchema } from '@rotunda/service-kit';
import { z } from 'zod';
import { gatewayConfigSchema } from '../../../../gateway/src/config.ts';
import { authConfigSchema } from '../../../../services/auth/src/config.ts';
import { newsConfigSchema } from '../../../../services/news/src/config.ts';
import { notificationConfigSchema } from '../../../../services/notification/src/config.ts';
import { orgConfigSchema } from '../../../../services/org/src/config.ts';
import { postConfigSchema } from '../../../../services/post/src/config.ts';
import { profileConfigSchema } from '../../../../services/profile/src/config.ts';

export const REPO = join(import.meta.dirname, '..', '..', '..', '..');

export const repoPath = (...parts: string[]) => join(REPO, ...parts);
export const readRepoFile = (...parts: string[]) => readFileSync(repoPath(...parts), 'utf8');

export interface Deployable {
  /** The image name's last part (rotunda/<name>), the Kubernetes Deployment's and the compose service's name. */
  name: string;
  /** Its workspace folder. */
  dir: string;
  kind: 'service' | 'gateway' | 'web';
  /**
   * The Dockerfile its image is built from (one for the Node processes, one for the web apps), its target stage
   * when it has several, and with which arguments.
   */
  dockerfile: string;
  target?: string;
  buildArgs?: Record<string, string>;
  /** The environment schema the process validates at start-up (Node processes). */
  schema?: z.ZodType;
}

/** A service process validates its own schema and, as it starts serving, the server's (the caller-token key). */
const served = (schema: z.ZodType) => z.intersection(schema, serverConfigSchema);

export const SERVICE_SCHEMAS = {
  auth: served(authConfigSchema),
  profile: served(profileConfigSchema),
  org: served(orgConfigSchema),
  post: served(postConfigSchema),
  news: served(newsConfigSchema),
  notification: served(notificationConfigSchema),
} as const;

export const DEPLOYABLES: Deployable[] = [
  ...Object.entries(SERVICE_SCHEMAS).map(([name, schema]) => ({
    name,
    dir: `services/${name}`,
    kind: 'service' as const,
    schema,
    dockerfile: 'docker/node/Dockerfile',
    target: 'service',
    buildArgs: {
      WORKSPACE: `services/${name}`,
      GRPC_PORT: String(grpcPortOf(name as keyof typeof SERVICE_SCHEMAS)),
    },
  })),
  {
    name: 'gateway',
    dir: 'gateway',
    kind: 'gateway',
    schema: gatewayConfigSchema,
    dockerfile: 'docker/node/Dockerfile',
    target: 'gateway',
    buildArgs: { WORKSPACE: 'gateway' },
  },
  ...['shell', 'mf-feed', 'mf-directory', 'mf-organizations', 'mf-profile'].map((name) => ({
    name,
    dir: name,
    kind: 'web' as const,
    dockerfile: 'docker/web/Dockerfile',
    // The shell at the root; each micro-frontend under the path docker/web/remotes.json names.
    buildArgs: { WORKSPACE: name, SITE_PATH: name === 'shell' ? '' : `mf/${name.slice('mf-'.length)}` },
  })),
];

/** The deployable's Dockerfile with its build arguments put in, as the build reads it. */
export function dockerfileOf(target: Deployable): string {
  return readRepoFile(target.dockerfile).replace(/\$\{(\w+)\}/g, (reference, name: string) =>
    target.buildArgs && name in target.buildArgs ? (target.buildArgs[name] ?? '') : reference,
  );
}

export const deployable = (name: string): Deployable | undefined => DEPLOYABLES.find((d) => d.name === name);

/** The variable names a configuration schema reads (through refinements and transforms). */
export function schemaKeys(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodIntersection)
    return [...schemaKeys(schema.def.left as z.ZodType), ...schemaKeys(schema.def.right as z.ZodType)];
  let current: unknown = schema;
  while (current instanceof z.ZodPipe) current = current.in;
  if (!(current instanceof z.ZodObject)) throw new Error('expected an object schema');
  return Object.keys(current.shape);
}

/** Each service's gRPC port: its schema's GRPC_PORT default. */
export function grpcPortOf(service: keyof typeof SERVICE_SCHEMAS): number {
  const { left } = SERVICE_SCHEMAS[service].def;
  const parsed = (left as z.ZodType).parse({}) as { GRPC_PORT: number };
  return parsed.GRPC_PORT;
}

/**
 * The official images Rotunda runs but does not build, each where its own project's documentation points, and what
 * a pinned release tag of each looks like. MinIO is not here: its Docker Hub images were withdrawn and its server
 * is AGPL; the S3 API is SeaweedFS's (Apache-2.0), whose release tags are `<major>.<minor>`.
 */
const ENGINE_IMAGES: Record<string, RegExp> = {
  postgres: /^\d+\.\d+(-[a-z]+)?$/,
  'quay.io/keycloak/keycloak': /^\d+\.\d+\.\d+$/,
  'docker.elastic.co/elasticsearch/elasticsearch': /^\d+\.\d+\.\d+$/,
  'opensearchproject/opensearch': /^\d+\.\d+\.\d+$/,
  'chrislusf/seaweedfs': /^\d+\.\d+$/,
  'maildev/maildev': /^\d+\.\d+\.\d+$/,
  nginx: /^\d+\.\d+\.\d+(-[a-z]+)?$/,
  node: /^\d+\.\d+\.\d+(-[a-z]+)*$/,
};

export function splitImage(image: string): {
  name: string;
  tag: string | undefined;
  digest: string | undefined;
} {
  const [withTag = '', digest] = image.split('@');
  const slash = withTag.lastIndexOf('/');
  const colon = withTag.lastIndexOf(':');
  return colon > slash
    ? { name: withTag.slice(0, colon), tag: withTag.slice(colon + 1), digest }
    : { name: withTag, tag: undefined, digest };
}

/** Why an image reference is not acceptable, or null: Rotunda's own (with a Dockerfile) or a pinned engine. */
export function imageProblem(image: string): string | null {
  const { name, tag, digest } = splitImage(image);
  const own = /^rotunda\/(.+)$/.exec(name);
  if (own) {
    const target = deployable(own[1] ?? '');
    if (!target) return `${image}: no deployable named ${own[1]}`;
    if (!existsSync(repoPath(target.dockerfile))) return `${image}: ${target.dockerfile} is missing`;
    if (!tag || tag === 'latest') return `${image}: needs a release tag`;
    return null;
  }
  const pattern = ENGINE_IMAGES[name];
  if (!pattern) return `${image}: neither built here nor a known official engine image`;
  if (digest) return null;
  if (!tag || !pattern.test(tag)) return `${image}: tag is not pinned to a release`;
  return null;
}
