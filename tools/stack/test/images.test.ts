// Rotunda's images are built as docker-compose.yml's build sections say, each once, with the host's CA lent.
import { describe, expect, it } from 'vitest';
import { buildArgs, imageBuilds } from '../src/images.ts';

const config = {
  services: {
    'db-roles': { image: 'rotunda/auth:local' },
    auth: {
      image: 'rotunda/auth:local',
      build: {
        context: '/repo',
        dockerfile: 'docker/node/Dockerfile',
        target: 'service',
        args: { WORKSPACE: 'services/auth', GRPC_PORT: '50051' },
      },
    },
    shell: {
      image: 'rotunda/shell:local',
      build: {
        context: '/repo',
        dockerfile: 'docker/web/Dockerfile',
        args: { WORKSPACE: 'shell', SITE_PATH: null },
      },
    },
    postgres: { image: 'postgres:18.4-bookworm' },
  },
};

describe("Rotunda's images", () => {
  it('are the images the build sections name, each once, with their Dockerfile, target and arguments', () => {
    expect(imageBuilds(config)).toEqual([
      {
        image: 'rotunda/auth:local',
        context: '/repo',
        dockerfile: '/repo/docker/node/Dockerfile',
        target: 'service',
        args: { WORKSPACE: 'services/auth', GRPC_PORT: '50051' },
      },
      {
        image: 'rotunda/shell:local',
        context: '/repo',
        dockerfile: '/repo/docker/web/Dockerfile',
        args: { WORKSPACE: 'shell', SITE_PATH: '' },
      },
    ]);
  });

  it('build on BuildKit with the CA bundle as a secret, never as a build argument', () => {
    const [auth] = imageBuilds(config);
    if (!auth) throw new Error('no auth build');
    const args = buildArgs(auth, '/etc/ssl/certs/ca-certificates.crt');
    expect(args).toEqual([
      'build',
      '--file',
      '/repo/docker/node/Dockerfile',
      '--target',
      'service',
      '--build-arg',
      'WORKSPACE=services/auth',
      '--build-arg',
      'GRPC_PORT=50051',
      '--secret',
      'id=ca,src=/etc/ssl/certs/ca-certificates.crt',
      '--tag',
      'rotunda/auth:local',
      '/repo',
    ]);
    expect(buildArgs(auth, null)).not.toContain('--secret');
  });
});
