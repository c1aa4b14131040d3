// Generates the TypeScript stubs in gen/ from every .proto under rotunda/ (ts-proto, grpc-js services).
// Runs on `npm install` (root postinstall), so generated code never drifts from the contracts.
// npm puts node_modules/.bin on PATH, where protoc finds protoc-gen-ts_proto by name.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const out = join(root, 'gen');
const protoFiles = readdirSync(join(root, 'rotunda'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.proto'))
  .map((file) => join('rotunda', file))
  .sort();

rmSync(out, { recursive: true, force: true });
mkdirSync(out);
execFileSync(
  'protoc',
  [
    `--ts_proto_out=${out}`,
    '--ts_proto_opt=outputServices=grpc-js,importSuffix=.ts,useDate=true,env=node,forceLong=number,snakeToCamel=false',
    '-I',
    root,
    ...protoFiles,
  ],
  { cwd: root, stdio: 'inherit' },
);
console.log(`protos: generated ${protoFiles.length} contracts into gen/`);
