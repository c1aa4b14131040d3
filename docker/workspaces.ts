// The workspaces an image is made of: the deployable's own and those of its @rotunda dependencies, transitively
// (its own devDependencies too, which its build uses). The image builds run it as
// `node docker/workspaces.ts <workspace> <from> <to>`: it copies those workspaces from the build context (<from>)
// into the image's folder (<to>) and prints their list, for npm to install them and no other.
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** Every workspace of the repository at `root`, by package name. */
function workspaces(root: string): Map<string, { dir: string; manifest: Manifest }> {
  const patterns = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] })
    .workspaces;
  const found = new Map<string, { dir: string; manifest: Manifest }>();
  for (const pattern of patterns) {
    const parent = pattern.endsWith('/*') ? pattern.slice(0, -2) : undefined;
    const dirs = parent
      ? existsSync(join(root, parent))
        ? readdirSync(join(root, parent), { withFileTypes: true })
            .filter((entry) => entry.isDirectory())
            .map((entry) => `${parent}/${entry.name}`)
        : []
      : [pattern];
    for (const dir of dirs) {
      const file = join(root, dir, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
      found.set(manifest.name, { dir, manifest });
    }
  }
  return found;
}

/** The workspace folders the deployable in folder `dir` is made of, sorted. */
function workspaceClosure(root: string, dir: string): string[] {
  const all = workspaces(root);
  const start = [...all.values()].find((entry) => entry.dir === dir);
  if (!start) throw new Error(`${dir} is not a workspace`);
  const seen = new Set<string>();
  const visit = (name: string, own: boolean) => {
    const entry = all.get(name);
    if (!entry || seen.has(entry.dir)) return;
    seen.add(entry.dir);
    const { dependencies, devDependencies, peerDependencies } = entry.manifest;
    for (const dep of Object.keys({ ...dependencies, ...peerDependencies, ...(own ? devDependencies : {}) }))
      visit(dep, false);
  };
  visit(start.manifest.name, true);
  return [...seen].sort();
}

if (import.meta.main) {
  const [dir, from, to] = process.argv.slice(2);
  if (!dir || !from || !to) {
    process.stderr.write(
      'usage: workspaces.ts <workspace> <from> <to> (build the image with --build-arg WORKSPACE=…)\n',
    );
    process.exit(64); // EX_USAGE
  }
  const closure = workspaceClosure(from, dir);
  for (const workspace of closure) cpSync(join(from, workspace), join(to, workspace), { recursive: true });
  process.stdout.write(JSON.stringify(closure));
}
