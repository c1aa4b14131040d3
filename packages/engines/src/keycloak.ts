// Keycloak from its Maven Central distribution, in development mode on loopback: the realm export in the repo
// (services/auth/keycloak/realm-rotunda.json) imported at the first start, with two realms that play agencies'
// own identity providers for agency sign-in (realms/: `agency` over OpenID Connect, `agency-saml` over SAML), an
// H2 file database in the instance's folder, health on the management port.
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
import { basename, join } from 'node:path';
import { type FetchContext, mavenDistribution, requireTool } from './fetch.ts';
import { type Supervised, supervise, waitHealthy } from './supervise.ts';
import { KEYCLOAK, KEYCLOAK_FEATURES, KEYCLOAK_SETTINGS } from './versions.ts';

const REALM = 'rotunda';
const SERVICE_CLIENT_ID = 'rotunda-auth';
const REALM_FILE = join(import.meta.dirname, '../../../services/auth/keycloak/realm-rotunda.json');
/** The agencies' identity providers the agency sign-in journeys and contract suites sign in through. */
const AGENCY_REALM_FILES = ['realm-agency.json', 'realm-agency-saml.json'].map((file) =>
  join(import.meta.dirname, '../realms', file),
);

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
  /** The product's public address: where Keycloak sends people back after agency sign-in, and posts logouts. */
  publicUrl: string;
  /** The realm's access-token lifespan: 20 s under test, so renewals and ended sessions show within a journey. */
  accessTokenSeconds: number;
  logFile: string;
}

function makeHome(distribution: string, home: string) {
  mkdirSync(join(home, 'bin'), { recursive: true });
  mkdirSync(join(home, 'data/import'), { recursive: true });
  for (const linked of ['lib', 'conf', 'providers', 'themes', 'version.txt'])
    if (!existsSync(join(home, linked))) symlinkSync(join(distribution, linked), join(home, linked));
  copyFileSync(join(distribution, 'bin/kc.sh'), join(home, 'bin/kc.sh'));
}

/** The realms imported: Rotunda's export with this instance's token lifespan, and the agencies' as they are. */
function realmsOf(options: KeycloakOptions): Record<string, string> {
  const rotunda = JSON.parse(readFileSync(REALM_FILE, 'utf8')) as Record<string, unknown>;
  rotunda.accessTokenLifespan = options.accessTokenSeconds;
  return {
    'realm-rotunda.json': JSON.stringify(rotunda),
    ...Object.fromEntries(AGENCY_REALM_FILES.map((file) => [basename(file), readFileSync(file, 'utf8')])),
  };
}

/**
 * Keycloak imports a realm only when it does not exist yet. When the realms or the addresses they name changed
 * since the database was made, the database is dropped so the current realms are what runs.
 */
function importCurrentRealms(options: KeycloakOptions, home: string) {
  const realms = realmsOf(options);
  const digest = createHash('sha256')
    .update(JSON.stringify([realms, options.publicUrl, options.port]))
    .digest('hex');
  const seen = join(options.folder, 'realm.sha256');
  if (!existsSync(seen) || readFileSync(seen, 'utf8') !== digest) {
    rmSync(join(home, 'data/h2'), { recursive: true, force: true });
    writeFileSync(seen, digest);
  }
  for (const [file, realm] of Object.entries(realms)) writeFileSync(join(home, 'data/import', file), realm);
}

export function startKeycloak(options: KeycloakOptions): Supervised {
  requireTool('java', 'Keycloak runs on Java 17 or newer (Debian: apt-get install openjdk-17-jre-headless)');
  const home = join(options.folder, 'home');
  makeHome(options.distribution, home);
  importCurrentRealms(options, home);
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
      // Agency sign-in asks the agency again at each renewal by exchanging for its token (ADR 0044).
      `--features=${KEYCLOAK_FEATURES}`,
      // Tokens name this issuer whichever address a client used.
      `--hostname=${url}`,
    ],
    env: {
      ...process.env,
      ...KEYCLOAK_SETTINGS,
      // The realm export's placeholder for rotunda-auth's secret, read at import.
      ROTUNDA_AUTH_CLIENT_SECRET: options.clientSecret,
      // The export's placeholders for the addresses its clients name: the product's and Keycloak's own.
      ROTUNDA_PUBLIC_URL: options.publicUrl,
      ROTUNDA_KEYCLOAK_URL: url,
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
