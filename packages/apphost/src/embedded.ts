// The embedded stand-ins for the production engines: an S3 endpoint (s3rver) and a mail inbox (MailDev).
import { mkdirSync } from 'node:fs';
import { MailDev } from 'maildev';
import S3rver from 's3rver';

export const MEDIA_BUCKET = 'rotunda-media';

export async function startS3(directory: string, port: number): Promise<{ stop: () => Promise<void> }> {
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    directory,
    silent: true,
    configureBuckets: [{ name: MEDIA_BUCKET }],
  });
  await server.run();
  return { stop: () => server.close() };
}

export async function startMailInbox(options: {
  directory: string;
  webPort: number;
  smtpPort: number;
}): Promise<{ stop: () => Promise<void> }> {
  mkdirSync(options.directory, { recursive: true });
  const maildev = new MailDev({
    smtp: options.smtpPort,
    ip: '127.0.0.1',
    web: options.webPort,
    webIp: '127.0.0.1',
    mailDirectory: options.directory,
    silent: true,
  });
  await maildev.start();
  return { stop: () => maildev.stop() };
}
