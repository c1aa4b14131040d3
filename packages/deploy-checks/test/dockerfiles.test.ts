// Every deployable's Dockerfile, as its build arguments make it (one Dockerfile for the services and the gateway,
// each its own target; one for the web apps): pinned base images (Node the version the repo pins), a final stage that
// runs as a non-root user with a health check and never seeds demo data, and exactly the workspaces the deployable is
// made of.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_FLAGS } from '@rotunda/service-kit';
import { describe, expect, it } from 'vitest';
import {
  DEPLOYABLES,
  dockerfileOf,
  grpcPortOf,
  imageProblem,
  readRepoFile,
  repoPath,
  schemaKeys,
} from './support/repo.ts';

interface Stage {
  from: string;
  alias: string | undefined;
  lines: string[];
}

/**
 * The Dockerfile's stages, with continuation lines joined. A FROM naming a global build argument (an ARG before
 * the first FROM) names that argument's default, as a build without it gets.
 */
function stages(dockerfile: string): Stage[] {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'));
  const found: Stage[] = [];
  const globals = new Map<string, string>();
  for (const line of lines) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    const global = found.length === 0 ? /^ARG\s+(\w+)=(\S+)$/.exec(line) : null;
    if (global) globals.set(global[1] ?? '', global[2] ?? '');
    else if (from) {
      const image = (from[1] ?? '').replace(/^\$\{(\w+)\}$/, (named, name) => globals.get(name) ?? named);
      found.push({ from: image, alias: from[2], lines: [] });
    } else found.at(-1)?.lines.push(line);
  }
  return found;
}

const instruction = (stage: Stage | undefined, name: string) =>
  (stage?.lines ?? [])
    .filter((line) => line.startsWith(`${name} `))
    .map((line) => line.slice(name.length + 1));

/**
 * The stages a build of `target` runs: its target stage (the last one without a target) and, transitively, the
 * stages that one is built from or copies from.
 */
function built(all: Stage[], target: string | undefined): Stage[] {
  const final = target === undefined ? all.at(-1) : all.find((stage) => stage.alias === target);
  if (!final) throw new Error(`no stage ${target}`);
  const runs = new Set<Stage>();
  const visit = (stage: Stage) => {
    if (runs.has(stage)) return;
    runs.add(stage);
    const sources = [
      stage.from,
      ...instruction(stage, 'COPY').map((args) => /^--from=(\S+)/.exec(args)?.[1]),
    ];
    for (const source of sources) {
      const base = all.find((other) => other.alias === source);
      if (base) visit(base);
    }
  };
  visit(final);
  return all.filter((stage) => runs.has(stage));
}

const rootManifest = JSON.parse(readRepoFile('package.json')) as { devDependencies: Record<string, string> };

describe.each(DEPLOYABLES)('$name: $dockerfile', (target) => {
  const file = () => dockerfileOf(target);
  /** The stages its build runs, the last being its image. */
  const own = () => built(stages(file()), target.target);
  const finalStage = () => own().at(-1);

  it('is given exactly the build arguments the stages it builds declare', () => {
    const declared = new Set(
      built(stages(readRepoFile(target.dockerfile)), target.target).flatMap((stage) =>
        instruction(stage, 'ARG'),
      ),
    );
    expect([...declared].sort()).toEqual(Object.keys(target.buildArgs ?? {}).sort());
  });

  it('builds in stages from pinned base images, Node being the version the repo runs', () => {
    const all = own();
    expect(all.length).toBeGreaterThanOrEqual(2);
    const aliases = new Set<string>();
    for (const stage of all) {
      if (!aliases.has(stage.from)) expect(imageProblem(stage.from)).toBeNull();
      if (stage.alias) aliases.add(stage.alias);
      if (stage.from.startsWith('node:'))
        expect(stage.from).toMatch(new RegExp(`^node:${rootManifest.devDependencies.node}-bookworm-slim$`));
    }
    expect(all.at(-1)?.from).toMatch(target.kind === 'web' ? /^nginx:/ : /^node:/);
  });

  it('runs its final stage as a non-root user, with a health check', () => {
    const final = finalStage();
    const [user] = instruction(final, 'USER');
    expect(user, 'USER').toMatch(/^[1-9]\d*(:[1-9]\d*)?$/);
    expect(instruction(final, 'HEALTHCHECK')).toHaveLength(1);
  });

  it('copies exactly the workspaces the deployable is made of, and only files that exist', () => {
    const text = file();
    const [build] = stages(text);
    // docker/workspaces.ts copies them from the build context and names them for npm.
    const run = instruction(build, 'RUN').join('\n');
    expect(run).toContain(
      `npm pkg set --json "workspaces=$(node /context/docker/workspaces.ts "${target.dir}" /context /app)"`,
    );
    for (const stage of stages(text))
      for (const args of instruction(stage, 'COPY').filter((a) => !a.startsWith('--from'))) {
        const sources = args.split(/\s+/).slice(0, -1);
        for (const source of sources) expect(existsSync(repoPath(source)), source).toBe(true);
      }
  });

  if (target.kind !== 'web')
    it('runs its entry point with the Node flags the one-machine product runs it with', () => {
      const [command] = instruction(finalStage(), 'CMD');
      expect(JSON.parse(command ?? '[]')).toEqual(['node', ...NODE_FLAGS, 'src/main.ts']);
    });

  it('never seeds demo data, however the image is started', () => {
    const variables = Object.fromEntries(
      instruction(finalStage(), 'ENV').flatMap((args) =>
        args.split(/\s+/).map((pair) => pair.split('=') as [string, string]),
      ),
    );
    // Only processes that can seed read SEED_DEMO: the five services.
    const seeds = target.schema ? schemaKeys(target.schema).includes('SEED_DEMO') : false;
    expect(seeds).toBe(target.kind === 'service');
    expect(variables.SEED_DEMO).toBe(seeds ? 'false' : undefined);
  });

  if (target.kind === 'service')
    it("listens on the service's own gRPC port", () => {
      const port = grpcPortOf(target.name as Parameters<typeof grpcPortOf>[0]);
      expect(file()).toContain(`GRPC_PORT=${port}`);
      expect(file()).toMatch(new RegExp(`^EXPOSE ${port}$`, 'm'));
    });
});

describe('docker/workspaces.ts (the workspaces an image is made of)', () => {
  const copy = (workspace: string) => {
    const to = mkdtempSync(join(tmpdir(), 'rotunda-workspaces-'));
    try {
      const printed = execFileSync(
        process.execPath,
        [repoPath('docker/workspaces.ts'), workspace, repoPath(), to],
        {
          encoding: 'utf8',
        },
      );
      const copied = readdirSync(to, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name === 'package.json')
        .map((entry) => entry.parentPath.slice(to.length + 1))
        .filter((dir) => !dir.includes('node_modules'))
        .sort();
      return { printed: JSON.parse(printed) as string[], copied };
    } finally {
      rmSync(to, { recursive: true, force: true });
    }
  };

  it("copies a service's workspace with its @rotunda dependencies, transitively, and names them", () => {
    const expected = [
      'packages/events',
      'packages/rules',
      'packages/search',
      'packages/service-kit',
      'protos',
      'services/post',
    ];
    expect(copy('services/post')).toEqual({ printed: expected, copied: expected });
  });

  it("copies a web app's workspace with the packages its build uses (its own devDependencies too)", () => {
    const expected = ['mf-feed', 'packages/rules', 'packages/session', 'packages/ui', 'packages/web-build'];
    expect(copy('mf-feed')).toEqual({ printed: expected, copied: expected });
  });

  it('refuses a build without its workspace', () => {
    expect(() =>
      execFileSync(process.execPath, [repoPath('docker/workspaces.ts')], { encoding: 'utf8', stdio: 'pipe' }),
    ).toThrow(/build the image with --build-arg WORKSPACE/);
  });
});

describe('docker/web/Dockerfile', () => {
  it("serves each micro-frontend under the path the shell's remotes.json points at", () => {
    const remotes = Object.values(
      JSON.parse(readRepoFile('docker/web/remotes.json')) as Record<string, string>,
    );
    const sitePaths = DEPLOYABLES.filter((target) => target.kind === 'web' && target.name !== 'shell').map(
      (target) => `/${target.buildArgs?.SITE_PATH}/mf-manifest.json`,
    );
    expect(sitePaths.sort()).toEqual(remotes.sort());
  });
});

describe('.dockerignore', () => {
  it('keeps installed, generated and built files out of the build context', () => {
    const ignored = readRepoFile('.dockerignore').split('\n');
    for (const entry of ['**/node_modules', '**/dist', '**/generated', 'protos/gen', '.data', '.git'])
      expect(ignored).toContain(entry);
  });
});
