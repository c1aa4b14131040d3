// The Keycloak realm export parses and holds what the Keycloak adapter and the production stack rely on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface ClientRep {
  clientId: string;
  [key: string]: unknown;
}
interface RealmRep {
  clients?: ClientRep[];
  roles?: { realm?: { name: string; description?: string }[] };
  users?: { username: string; serviceAccountClientId?: string; clientRoles?: Record<string, string[]> }[];
  [key: string]: unknown;
}

const realm = JSON.parse(
  readFileSync(new URL('../keycloak/realm-rotunda.json', import.meta.url), 'utf8'),
) as RealmRep;
const client = (clientId: string) => realm.clients?.find((c) => c.clientId === clientId);

describe('Keycloak realm export', () => {
  it("is the enabled realm 'rotunda', registering and confirming through Rotunda, not Keycloak", () => {
    expect(realm).toMatchObject({
      realm: 'rotunda',
      enabled: true,
      registrationAllowed: false,
      loginWithEmailAllowed: true,
      duplicateEmailsAllowed: false,
      verifyEmail: false,
      resetPasswordAllowed: false,
    });
  });

  it('has brute-force detection on, never locking the owner out for good', () => {
    expect(realm).toMatchObject({ bruteForceProtected: true, permanentLockout: false });
    // No quick-login lock: two quick wrong passwords would lock an account for a minute, before the auth service's
    // free failures are spent (ADR 0019); Keycloak's failure count stays as a backstop.
    expect(realm).toMatchObject({ quickLoginCheckMilliSeconds: 0 });
    for (const field of [
      'failureFactor',
      'waitIncrementSeconds',
      'maxFailureWaitSeconds',
      'maxDeltaTimeSeconds',
    ]) {
      expect(realm[field]).toBeTypeOf('number');
      expect(realm[field] as number).toBeGreaterThan(0);
    }
    expect(realm.maxFailureWaitSeconds as number).toBeGreaterThanOrEqual(
      realm.waitIncrementSeconds as number,
    );
  });

  it('sets the token and session lifespans', () => {
    expect(realm).toMatchObject({
      accessTokenLifespan: 300,
      ssoSessionIdleTimeout: 1800,
      ssoSessionMaxLifespan: 36000,
    });
  });

  it('rotates refresh tokens: each works once, and Keycloak reports a reuse', () => {
    expect(realm).toMatchObject({ revokeRefreshToken: true, refreshTokenMaxReuse: 0 });
  });

  it("defines the realm role 'admin' for the people who administer access", () => {
    const role = realm.roles?.realm?.find((r) => r.name === 'admin');
    expect(role?.description).toMatch(/^Administrator/);
  });

  it("defines the realm role 'contributor'", () => {
    const role = realm.roles?.realm?.find((r) => r.name === 'contributor');
    expect(role?.description).toBe('Concierge contributor — may edit unclaimed profiles and organizations');
  });

  it("has the public web client 'rotunda-web': code flow with PKCE S256, no direct grants", () => {
    const web = client('rotunda-web');
    expect(web).toMatchObject({
      enabled: true,
      publicClient: true,
      standardFlowEnabled: true,
      directAccessGrantsEnabled: false,
      redirectUris: ['http://localhost:8080/*'],
      webOrigins: ['http://localhost:8080'],
      attributes: expect.objectContaining({ 'pkce.code.challenge.method': 'S256' }),
    });
  });

  it("has the confidential client 'rotunda-auth' with a service account, and commits no secret", () => {
    const auth = client('rotunda-auth');
    expect(auth).toMatchObject({
      enabled: true,
      publicClient: false,
      serviceAccountsEnabled: true,
      directAccessGrantsEnabled: true,
    });
    // Keycloak fills the placeholder from the environment at import.
    expect(auth?.secret).toMatch(/^\$\{ROTUNDA_AUTH_CLIENT_SECRET\}$/);
  });

  it("lets members change neither their email nor their username in Keycloak's account console", () => {
    // The email is the one Rotunda checked at registration (its domain decides who may join): only the auth
    // service, as an admin, changes it.
    expect(realm).toMatchObject({ editUsernameAllowed: false, registrationEmailAsUsername: false });
    const components = realm.components as Record<
      string,
      { providerId: string; config: Record<string, string[]> }[]
    >;
    const [userProfile] = components['org.keycloak.userprofile.UserProfileProvider'] ?? [];
    expect(userProfile?.providerId).toBe('declarative-user-profile');
    const config = JSON.parse(userProfile?.config['kc.user.profile.config']?.[0] ?? '{}') as {
      attributes: { name: string; permissions: { view: string[]; edit: string[] } }[];
      unmanagedAttributePolicy?: string;
    };
    const email = config.attributes.find((attribute) => attribute.name === 'email');
    expect(email?.permissions).toEqual({ view: ['admin', 'user'], edit: ['admin'] });
    // No attribute beyond the profile's own may be set through the console either.
    expect(config.unmanagedAttributePolicy).toBeUndefined();
    expect(config.attributes.map((attribute) => attribute.name).sort()).toEqual([
      'email',
      'firstName',
      'lastName',
      'username',
    ]);
  });

  it("gives rotunda-auth's service account exactly the roles the adapters need", () => {
    const account = realm.users?.find((u) => u.serviceAccountClientId === 'rotunda-auth');
    expect(account?.username).toBe('service-account-rotunda-auth');
    expect([...(account?.clientRoles?.['realm-management'] ?? [])].sort()).toEqual([
      // Agencies' identity providers, and the permission that lets rotunda-auth exchange for their tokens.
      'manage-authorization',
      'manage-identity-providers',
      'manage-users',
      'query-users',
      'view-clients',
      'view-identity-providers',
      'view-users',
    ]);
  });

  it('sends agency sign-in back to the product, and tells it of ended sessions over the back channel', () => {
    const auth = client('rotunda-auth') as Record<string, unknown> & {
      attributes?: Record<string, string>;
      protocolMappers?: { protocolMapper: string; config: Record<string, string> }[];
    };
    expect(auth).toMatchObject({ standardFlowEnabled: true, implicitFlowEnabled: false });
    // One exact address each, from the product's public address at import: no wildcard an attacker could aim.
    expect(auth.redirectUris).toEqual([`\${ROTUNDA_PUBLIC_URL:http://localhost:8080}/agency-sign-in`]);
    expect(auth.attributes).toMatchObject({
      'pkce.code.challenge.method': 'S256',
      'backchannel.logout.url': `\${ROTUNDA_PUBLIC_URL:http://localhost:8080}/auth/backchannel-logout`,
      'backchannel.logout.session.required': 'true',
    });
    // The agency a session came through, in its access tokens: a renewal asks that agency again.
    expect(auth.protocolMappers).toContainEqual(
      expect.objectContaining({
        protocolMapper: 'oidc-usersessionmodel-note-mapper',
        config: expect.objectContaining({ 'user.session.note': 'identity_provider', 'claim.name': 'agency' }),
      }),
    );
  });
});
