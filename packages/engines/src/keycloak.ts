// Keycloak from its Maven Central distribution, in development mode on loopback: the realm export in the repo
// (services/auth/keycloak/realm-rotunda.json) imported at the first start, an H2 file database in the
// instance's folder, health on the management port.
//
// Each set of engines gets a Keycloak home of its own whose lib/, conf/, providers/ and themes/ are links to
// the cached distribution and whose data/ is real (Keycloak reads its import folder and keeps its database
// under <home>/data, with no option to put them elsewhere). kc.sh is copied rather than linked because it finds
// the home from its own resolved path.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { type FetchContext, mavenDistribution, requireTool } from './fetch.ts';
import { type Supervised, supervise, waitHealthy } from './supervise.ts';
import { KEYCLOAK } from './versions.ts';

const REALM = 'rotunda';
const SERVICE_CLIENT_ID = 'rotunda-auth';
const REALM_FILE = join(import.meta.dirname, '../../../services/auth/keycloak/realm-rotunda.json');

/**
 * Fetches and unpacks the distribution into the build cache, once per version; answers its folder. Keycloak's
 * first start augments it (lib/quarkus, through the home's link to lib/), so later starts, in any clone, skip that.
 */
export function fetchKeycloak(context: FetchContext): Promise<string> {
  return mavenDistribution(context, KEYCLOAK.artifact, `keycloak-${KEYCLOAK.version}`);
}

export interface KeycloakOptions {
  distribution: string;
  /** This instance's folder (home/, realm.sha256). */
  folder: string;
  port: number;
  managementPort: number;
  clientSecret: string;
  adminPassword: string;
  logFile: string;
}

function makeHome(distribution: string, home: string) {
  mkdirSync(join(home, 'bin'), { recursive: true });
  mkdirSync(join(home, 'data/import'), { recursive: true });
  for (const linked of ['lib', 'conf', 'providers', 'themes', 'version.txt'])
    if (!existsSync(join(home, linked))) symlinkSync(join(distribution, linked), join(home, linked));
  copyFileSync(join(distribution, 'bin/kc.sh'), join(home, 'bin/kc.sh'));
}

/**
 * Keycloak imports a realm only when it does not exist yet. When the export in the repo changed since the
 * database was made, the database is dropped so the current export is what runs.
 */
function importCurrentRealm(folder: string, home: string) {
  const realm = readFileSync(REALM_FILE);
  const digest = createHash('sha256').update(realm).digest('hex');
  const seen = join(folder, 'realm.sha256');
  if (!existsSync(seen) || readFileSync(seen, 'utf8') !== digest) {
    rmSync(join(home, 'data/h2'), { recursive: true, force: true });
    writeFileSync(seen, digest);
  }
  writeFileSync(join(home, 'data/import/realm-rotunda.json'), realm);
}

export function startKeycloak(options: KeycloakOptions): Supervised {
  requireTool('java', 'Keycloak runs on Java 17 or newer (Debian: apt-get install openjdk-17-jre-headless)');
  const home = join(options.folder, 'home');
  makeHome(options.distribution, home);
  importCurrentRealm(options.folder, home);
  const url = `http://127.0.0.1:${options.port}`;
  return supervise({
    name: 'keycloak',
    command: join(home, 'bin/kc.sh'),
    args: [
      'start-dev',
      '--import-realm',
      '--http-host=127.0.0.1',
      `--http-port=${options.port}`,
      `--http-management-port=${options.managementPort}`,
      '--health-enabled=true',
      // Tokens name this issuer whichever address a client used.
      `--hostname=${url}`,
    ],
    env: {
      ...process.env,
      // The realm export's placeholder for rotunda-auth's secret, read at import.
      ROTUNDA_AUTH_CLIENT_SECRET: options.clientSecret,
      KC_BOOTSTRAP_ADMIN_USERNAME: 'admin',
      KC_BOOTSTRAP_ADMIN_PASSWORD: options.adminPassword,
      // A small heap and the quick JIT only: on 2 cores a warm start takes 7 s instead of 9.
      JAVA_OPTS_KC_HEAP: '-Xms64m -Xmx512m',
      JAVA_OPTS_APPEND: '-XX:TieredStopAtLevel=1',
    },
    logFile: options.logFile,
  });
}

export async function keycloakReady(engine: Supervised, managementPort: number): Promise<number> {
  // The first start also builds (augments) the distribution: about a minute on 2 cores, 10 s afterwards.
  return waitHealthy(engine, `http://127.0.0.1:${managementPort}/health/ready`, 900_000);
}

export function keycloakEnvironment(port: number, clientSecret: string): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  return {
    IDENTITY_PROVIDER: 'keycloak',
    KEYCLOAK_URL: url,
    KEYCLOAK_REALM: REALM,
    KEYCLOAK_CLIENT_ID: SERVICE_CLIENT_ID,
    KEYCLOAK_CLIENT_SECRET: clientSecret,
    JWKS_URL: `${url}/realms/${REALM}/protocol/openid-connect/certs`,
    TOKEN_ISSUER: `${url}/realms/${REALM}`,
  };
}
