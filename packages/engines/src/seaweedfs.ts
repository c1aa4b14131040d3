// The S3 server: SeaweedFS's all-in-one `weed server` (master, volume server, filer and S3 gateway in one
// process) on loopback, its data in the instance's folder, with one S3 identity whose keys are generated per
// instance. Every port it would open is named, so none of its defaults (8080, 8333, 8888, 9333, ...) is taken.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FetchContext, goBuild } from './fetch.ts';
import type { Ports } from './layout.ts';
import { type Supervised, supervise, waitHealthy } from './supervise.ts';
import { SEAWEEDFS } from './versions.ts';

export async function fetchSeaweedFs(context: FetchContext): Promise<string> {
  return goBuild(
    context,
    { path: SEAWEEDFS.module, version: SEAWEEDFS.version, package: './weed' },
    `seaweedfs-${SEAWEEDFS.version}`,
    'weed',
  );
}

export interface S3Credentials {
  accessKey: string;
  secretKey: string;
}

export function startSeaweedFs(options: {
  binary: string;
  folder: string;
  ports: Ports;
  credentials: S3Credentials;
  logFile: string;
}): Supervised {
  const { folder, ports, credentials } = options;
  mkdirSync(join(folder, 'data'), { recursive: true });
  const identities = join(folder, 's3-identities.json');
  writeFileSync(
    identities,
    JSON.stringify({
      identities: [
        {
          name: 'rotunda',
          credentials: [credentials],
          actions: ['Admin', 'Read', 'List', 'Tagging', 'Write'],
        },
      ],
    }),
    { mode: 0o600 },
  );
  return supervise({
    name: 'seaweedfs',
    command: options.binary,
    args: [
      'server',
      `-dir=${join(folder, 'data')}`,
      '-ip=127.0.0.1',
      '-ip.bind=127.0.0.1',
      `-master.port=${ports.seaweedMaster}`,
      `-master.port.grpc=${ports.seaweedMasterGrpc}`,
      // Small volumes: a test store, not gigabytes preallocated.
      '-master.volumeSizeLimitMB=64',
      // Its one master elects itself again on a restart, after the election timeout (10 s by default) during
      // which no write can land; a lone master has no one to wait for (restart to first write: 30 s → 17 s here).
      '-master.electionTimeout=1s',
      `-volume.port=${ports.seaweedVolume}`,
      `-volume.port.grpc=${ports.seaweedVolumeGrpc}`,
      '-volume.max=16',
      // Its default waits 10 s after a stop before closing; nothing needs that grace here.
      '-volume.preStopSeconds=0',
      '-filer',
      `-filer.port=${ports.seaweedFiler}`,
      `-filer.port.grpc=${ports.seaweedFilerGrpc}`,
      '-s3',
      `-s3.port=${ports.s3}`,
      `-s3.port.grpc=${ports.s3Grpc}`,
      '-s3.port.iceberg=0',
      '-s3.port.lance=0',
      `-s3.config=${identities}`,
    ],
    cwd: folder,
    logFile: options.logFile,
  });
}

/**
 * Ready when a write lands, not when the S3 port answers: after a restart its healthz answers 13-22 s before the
 * filer takes a write (measured here), and the product's uploads are writes. The probe overwrites one small file
 * in the filer, outside every bucket, through the path an S3 PUT takes (the filer assigns, the volume stores).
 */
export async function seaweedFsReady(engine: Supervised, ports: Ports): Promise<number> {
  const started = performance.now();
  await waitHealthy(engine, `http://127.0.0.1:${ports.s3}/healthz`, 120_000);
  await waitHealthy(engine, `http://127.0.0.1:${ports.seaweedFiler}/.rotunda-ready`, 120_000, {
    method: 'PUT',
    body: 'ready',
    timeoutMs: 30_000,
  });
  return performance.now() - started;
}

export function s3Environment(port: number, credentials: S3Credentials): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  return {
    S3_ENDPOINT: url,
    S3_ACCESS_KEY: credentials.accessKey,
    S3_SECRET_KEY: credentials.secretKey,
    // The object store contract suite's names for a real S3 server (packages/images/test/object-store.test.ts).
    MINIO_URL: url,
    MINIO_ACCESS_KEY: credentials.accessKey,
    MINIO_SECRET_KEY: credentials.secretKey,
  };
}
