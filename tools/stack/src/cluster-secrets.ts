// The local cluster's secrets (npm run cluster): the values .env.example asks for, made as `npm run stack` makes
// them and kept in .data/cluster/.env, written as the two files the kustomizations read (both gitignored):
// k8s/overlays/local/secrets.env (every key of its secrets.env.example, the URLs built on the engines' Service names)
// and k8s/local-data/secrets.env with s3-identities.json (the engines' passwords and the S3 identity). A file already
// there is kept: PostgreSQL and Keycloak keep the first passwords they were started with.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv, writeStackEnv } from './secrets.ts';

const REPO = join(import.meta.dirname, '../../..');
const OVERLAY = join(REPO, 'k8s/overlays/local');
const DATA = join(REPO, 'k8s/local-data');

const values = writeStackEnv({ example: join(REPO, '.env.example'), file: join(REPO, '.data/cluster/.env') });
const value = (name: string): string => {
  const found = values.get(name);
  if (!found) throw new Error(`.env.example gives no ${name}`);
  return found;
};
const database = (user: string, password: string) =>
  `postgresql://${user}:${encodeURIComponent(password)}@postgres:5432/rotunda`;
const services = ['auth', 'profile', 'org', 'post', 'news', 'notification'];
const publicKey = (service: string) =>
  `${service}:${value(`${service.toUpperCase()}_SERVICE_TOKEN_PUBLIC_KEY`)}`;

const overlay: Record<string, string> = {
  POSTGRES_ADMIN_URL: database('rotunda', value('POSTGRES_PASSWORD')),
  ...Object.fromEntries(
    services.flatMap((service) => {
      const upper = service.toUpperCase();
      return [
        [`${upper}_DATABASE_URL`, database(service, value(`${upper}_DB_PASSWORD`))],
        [
          `${upper}_MIGRATION_DATABASE_URL`,
          database(`${service}_owner`, value(`${upper}_DB_OWNER_PASSWORD`)),
        ],
      ];
    }),
  ),
  ELASTICSEARCH_URL: 'http://elasticsearch:9200',
  S3_ACCESS_KEY: value('S3_ACCESS_KEY'),
  S3_SECRET_KEY: value('S3_SECRET_KEY'),
  KEYCLOAK_CLIENT_SECRET: value('ROTUNDA_AUTH_CLIENT_SECRET'),
  CAPTCHA_HMAC_KEY: value('CAPTCHA_HMAC_KEY'),
  SMTP_URL: 'smtp://smtp:1025',
  CALLER_TOKEN_PRIVATE_KEY: value('CALLER_TOKEN_PRIVATE_KEY'),
  CALLER_TOKEN_PUBLIC_KEY: value('CALLER_TOKEN_PUBLIC_KEY'),
  PROFILE_SERVICE_TOKEN_PRIVATE_KEY: value('PROFILE_SERVICE_TOKEN_PRIVATE_KEY'),
  POST_SERVICE_TOKEN_PRIVATE_KEY: value('POST_SERVICE_TOKEN_PRIVATE_KEY'),
  NOTIFICATION_SERVICE_TOKEN_PRIVATE_KEY: value('NOTIFICATION_SERVICE_TOKEN_PRIVATE_KEY'),
  AUTH_SERVICE_TOKEN_PUBLIC_KEYS: [publicKey('profile'), publicKey('notification')].join(','),
  ORG_SERVICE_TOKEN_PUBLIC_KEYS: [publicKey('profile'), publicKey('post')].join(','),
  PROFILE_SERVICE_TOKEN_PUBLIC_KEYS: [publicKey('post'), publicKey('notification')].join(','),
};

// Exactly the keys the example names, so a key added there and not here stops this rather than the pods.
const wanted = [...parseEnv(readFileSync(join(OVERLAY, 'secrets.env.example'), 'utf8')).keys()];
const unknown = wanted.filter((name) => !(name in overlay));
if (unknown.length > 0) throw new Error(`secrets.ts makes no ${unknown.join(', ')}`);

function writeOnce(file: string, text: string): void {
  if (existsSync(file)) return;
  writeFileSync(file, text, { mode: 0o600 });
  console.log(`cluster: wrote ${file.slice(REPO.length + 1)}`);
}

writeOnce(join(OVERLAY, 'secrets.env'), `${wanted.map((name) => `${name}=${overlay[name]}`).join('\n')}\n`);
const data = [
  'POSTGRES_PASSWORD',
  'KEYCLOAK_DB_PASSWORD',
  'KEYCLOAK_ADMIN_PASSWORD',
  'ROTUNDA_AUTH_CLIENT_SECRET',
];
writeOnce(join(DATA, 'secrets.env'), `${data.map((name) => `${name}=${value(name)}`).join('\n')}\n`);
// SeaweedFS's identities, as docker-compose.yml's: one, allowed the media bucket only (creating it included).
const bucket = 'rotunda-media';
writeOnce(
  join(DATA, 's3-identities.json'),
  `${JSON.stringify(
    {
      identities: [
        {
          name: 'rotunda',
          credentials: [{ accessKey: value('S3_ACCESS_KEY'), secretKey: value('S3_SECRET_KEY') }],
          actions: ['Admin', 'Read', 'List', 'Write', 'Tagging'].map((action) => `${action}:${bucket}`),
        },
      ],
    },
    null,
    2,
  )}\n`,
);
