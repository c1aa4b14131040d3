#!/usr/bin/env node
// `prisma generate` for a service, offline: the CLI downloads its schema engine unless told where one is,
// and generate does not use it, so point it at an existing file (ADR 0003).
import { spawnSync } from 'node:child_process';

const result = spawnSync('prisma', ['generate', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  },
});
process.exit(result.status ?? 1);
