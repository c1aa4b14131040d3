// Accounts, roles, the email-verified flag and sessions through Keycloak's admin REST API, as the realm's
// confidential service client: its service account's token, renewed before it expires, and Keycloak's answers
// (404, 409, 403) read into the identity port's errors.
import KcAdminClient, { NetworkError } from '@keycloak/keycloak-admin-client';
import { DomainError, notFound } from '@rotunda/service-kit';
import type { IdentityProvider, IdentityUser } from '../domain/ports.ts';
import {
  type KeycloakOidc,
  type KeycloakTokenResponse,
  keycloakFailure,
  REQUEST_TIMEOUT_MS,
  reachingKeycloak,
} from './keycloak-oidc.ts';

type UserRepresentation = NonNullable<Awaited<ReturnType<KcAdminClient['users']['findOne']>>>;

export interface KeycloakAccountsOptions {
  base: string;
  realm: string;
  clientId: string;
  oidc: KeycloakOidc;
}

/** The identity port's account and role operations, and the session ending the refresh rotation needs. */
export type KeycloakAccounts = Pick<
  IdentityProvider,
  | 'createUser'
  | 'findUserByEmail'
  | 'findUserById'
  | 'emailsOf'
  | 'createdAt'
  | 'setEmailVerified'
  | 'setPassword'
  | 'endSessions'
  | 'grantRole'
  | 'revokeRole'
  | 'accessTokenSeconds'
> & {
  /** Ends one user session (every client's part of it); one already gone is no error. */
  deleteSession(id: string): Promise<void>;
  /**
   * Deletes the user, and with it their sessions, answering those sessions' ids; a user already gone is no
   * error (none ended).
   */
  deleteUser(id: string): Promise<string[]>;
  /**
   * Is the account with this email held by Keycloak's brute-force detection now? Keycloak then refuses even the
   * right password, with the words of a wrong one.
   */
  heldByBruteForce(email: string): Promise<boolean>;
  /** Any other admin call, as the service account, retried once with a fresh token (the agencies' providers). */
  withAdmin<T>(call: (admin: KcAdminClient) => Promise<T>): Promise<T>;
};

// Renew the service account's token this long before Keycloak would refuse it.
const RENEW_MARGIN_MS = 30_000;
/** Keycloak's user ids are UUIDs; anything else names no account and never reaches its admin paths. */
const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Admin calls one email lookup makes at once: the API reads users one by one. */
const LOOKUPS_AT_ONCE = 16;

const statusOf = (error: unknown) => (error instanceof NetworkError ? error.response.status : undefined);

export function createKeycloakAccounts(options: KeycloakAccountsOptions): KeycloakAccounts {
  // Keycloak gives every user its realm's composite default role (and, through it, offline_access and
  // uma_authorization). They are Keycloak's plumbing, not Rotunda roles, so the port never shows them.
  const keycloakRoles = new Set([
    `default-roles-${options.realm.toLowerCase()}`,
    'offline_access',
    'uma_authorization',
  ]);

  // The service account's access token, renewed by a new client-credentials grant before it expires: Keycloak
  // issues no refresh token for that grant, so the admin client's own refresh would fail after 5 minutes.
  let serviceToken: { value: string; renewAt: number } | undefined;
  // The lifespan of the last token the realm issued this client: the members' tokens come from the same client.
  let tokenLifespan: number | undefined;
  let serviceTokenPending: Promise<string> | undefined;

  async function requestServiceToken(): Promise<string> {
    const { status, json } = await options.oidc.postForm('token', { grant_type: 'client_credentials' });
    if (status !== 200) throw keycloakFailure('client-credentials grant for the admin API', status, json);
    const body = (json ?? {}) as KeycloakTokenResponse;
    if (typeof body.access_token !== 'string' || typeof body.expires_in !== 'number') {
      throw new Error('Keycloak client-credentials response lacks access_token or expires_in');
    }
    tokenLifespan = body.expires_in;
    const lifetimeMs = body.expires_in * 1000;
    const renewIn = Math.max(0, Math.min(lifetimeMs * 0.8, lifetimeMs - RENEW_MARGIN_MS));
    serviceToken = { value: body.access_token, renewAt: Date.now() + renewIn };
    return body.access_token;
  }

  function serviceAccessToken(): Promise<string> {
    if (serviceToken && Date.now() < serviceToken.renewAt) return Promise.resolve(serviceToken.value);
    // One grant at a time: concurrent admin calls share the renewal instead of each asking Keycloak.
    serviceTokenPending ??= requestServiceToken().finally(() => {
      serviceTokenPending = undefined;
    });
    return serviceTokenPending;
  }

  const admin = new KcAdminClient({
    baseUrl: options.base,
    realmName: options.realm,
    timeout: REQUEST_TIMEOUT_MS,
  });
  admin.registerTokenProvider({ getAccessToken: serviceAccessToken });

  /** An admin call, retried once with a fresh token if Keycloak no longer accepts ours (restart, key rotation). */
  async function adminCall<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await reachingKeycloak('admin API', () =>
        call().catch(async (error: unknown) => {
          if (statusOf(error) !== 401) throw error;
          serviceToken = undefined;
          return call();
        }),
      );
    } catch (error) {
      if (statusOf(error) === 403) {
        // Say what to fix: Keycloak's own answer to this is a bare "HTTP 403".
        throw new Error(
          `Keycloak refused an admin call (HTTP 403): the service account of client '${options.clientId}' needs the realm-management roles manage-users, view-users, query-users, manage-identity-providers and view-identity-providers`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  /** An admin call on one account: Keycloak's 404 becomes the domain's not_found. */
  async function onAccount<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await adminCall(call);
    } catch (error) {
      if (statusOf(error) === 404) throw notFound('No account with this id');
      throw error;
    }
  }

  async function deleteSession(id: string): Promise<void> {
    try {
      await adminCall(() =>
        admin.realms.deleteSession({ realm: options.realm, session: id, isOffline: false }),
      );
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }

  async function rolesOf(id: string): Promise<string[]> {
    const mapped = await onAccount(() => admin.users.listRealmRoleMappings({ id }));
    return mapped
      .map((role) => role.name)
      .filter((name): name is string => typeof name === 'string' && !keycloakRoles.has(name))
      .sort();
  }

  async function toIdentityUser(user: UserRepresentation): Promise<IdentityUser | null> {
    if (!user.id) return null;
    return {
      id: user.id,
      email: user.email ?? '',
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      emailVerified: user.emailVerified ?? false,
      roles: await rolesOf(user.id),
    };
  }

  return {
    deleteSession,
    withAdmin: (call) => adminCall(() => call(admin)),

    async deleteUser(id) {
      if (!USER_ID.test(id)) return [];
      try {
        const sessions = await adminCall(() => admin.users.listSessions({ id }));
        await adminCall(() => admin.users.del({ id }));
        return sessions.map((session) => session.id).filter((sid): sid is string => typeof sid === 'string');
      } catch (error) {
        if (statusOf(error) === 404) return [];
        throw error;
      }
    },

    async emailsOf(ids) {
      const wanted = ids.filter((id) => USER_ID.test(id));
      const found: { userId: string; email: string }[] = [];
      for (let start = 0; start < wanted.length; start += LOOKUPS_AT_ONCE) {
        const users = await Promise.all(
          wanted
            .slice(start, start + LOOKUPS_AT_ONCE)
            .map((id) => adminCall(() => admin.users.findOne({ id }))),
        );
        for (const user of users)
          if (user?.id && user.email) found.push({ userId: user.id, email: user.email });
      }
      return found;
    },

    async createdAt(id) {
      if (!USER_ID.test(id)) return null;
      const user = await adminCall(() => admin.users.findOne({ id }));
      return typeof user?.createdTimestamp === 'number' ? new Date(user.createdTimestamp) : null;
    },

    /**
     * Read from the realm through the service account's own token rather than its settings (which would take
     * the view-realm role): the realm issues it, to the same client as the members' tokens, with the same
     * access-token lifespan, and a changed lifespan shows at the next renewal.
     */
    async accessTokenSeconds() {
      await serviceAccessToken();
      return tokenLifespan as number;
    },

    async createUser(user) {
      const email = user.email.trim().toLowerCase();
      const emailVerified = user.emailVerified ?? false;
      try {
        const { id } = await adminCall(() =>
          admin.users.create({
            // The email is the username too, so the password grant works whether Keycloak looks up either.
            username: email,
            email,
            firstName: user.firstName,
            lastName: user.lastName,
            enabled: true,
            emailVerified,
            credentials: [{ type: 'password', value: user.password, temporary: false }],
          }),
        );
        // A new account holds only Keycloak's default role, which the port does not show.
        return { id, email, firstName: user.firstName, lastName: user.lastName, emailVerified, roles: [] };
      } catch (error) {
        if (statusOf(error) === 409) {
          throw new DomainError('already_exists', 'An account with this email already exists');
        }
        throw error;
      }
    },

    async findUserByEmail(email) {
      const wanted = email.trim().toLowerCase();
      const found = await adminCall(() => admin.users.find({ email: wanted, exact: true, max: 2 }));
      // exact: true already asks for equality; the check keeps a looser server from answering a neighbour.
      const user = found.find((candidate) => candidate.email?.toLowerCase() === wanted);
      return user ? toIdentityUser(user) : null;
    },

    async heldByBruteForce(email) {
      const wanted = email.trim().toLowerCase();
      const found = await adminCall(() => admin.users.find({ email: wanted, exact: true, max: 2 }));
      const id = found.find((candidate) => candidate.email?.toLowerCase() === wanted)?.id;
      if (!id) return false;
      const status = await adminCall(() => admin.attackDetection.findOne({ id }));
      return status?.disabled === true;
    },

    async findUserById(id) {
      if (!USER_ID.test(id)) return null;
      // findOne answers null on Keycloak's 404.
      const user = await adminCall(() => admin.users.findOne({ id }));
      if (!user) return null;
      try {
        return await toIdentityUser(user);
      } catch (error) {
        // Deleted between the two calls.
        if (error instanceof DomainError && error.kind === 'not_found') return null;
        throw error;
      }
    },

    async setEmailVerified(userId, verified) {
      const user = await adminCall(() => admin.users.findOne({ id: userId }));
      if (!user) throw notFound('No account with this id');
      // Keycloak's PUT replaces the user (attributes left out are cleared), so the whole representation goes
      // back with only the flag changed.
      await onAccount(() => admin.users.update({ id: userId }, { ...user, emailVerified: verified }));
    },

    async setPassword(userId, password) {
      await onAccount(() =>
        admin.users.resetPassword({
          id: userId,
          credential: { type: 'password', value: password, temporary: false },
        }),
      );
    },

    async endSessions(userId, keep) {
      let sessions: Awaited<ReturnType<KcAdminClient['users']['listSessions']>>;
      try {
        sessions = await adminCall(() => admin.users.listSessions({ id: userId }));
        if (!keep) {
          // Ends every session and sets the user's not-before, so refresh tokens issued earlier stop working.
          await adminCall(() => admin.users.logout({ id: userId }));
        }
      } catch (error) {
        // No such account: it has no sessions to end.
        if (statusOf(error) === 404) return [];
        throw error;
      }
      const ended = sessions
        .map((session) => session.id)
        .filter((id): id is string => typeof id === 'string' && id !== keep);
      // Not the account-wide logout: its not-before would end the session to keep as well.
      if (keep) for (const id of ended) await deleteSession(id);
      return ended;
    },

    async grantRole(userId, role) {
      // Mapping a role needs its id, and reading a realm role by name needs view-realm, which the service
      // account does not hold; the roles it may map to this user carry their ids.
      const available = await onAccount(() => admin.users.listAvailableRealmRoleMappings({ id: userId }));
      const target = available.find((candidate) => candidate.name === role);
      if (target?.id && target.name) {
        const mapping = { id: target.id, name: target.name };
        await onAccount(() => admin.users.addRealmRoleMappings({ id: userId, roles: [mapping] }));
        return;
      }
      // "Available" leaves out the roles the user already holds.
      if ((await rolesOf(userId)).includes(role)) return;
      throw new Error(
        `Keycloak realm '${options.realm}' has no realm role '${role}' that the service client may map`,
      );
    },

    async revokeRole(userId, role) {
      const mapped = await onAccount(() => admin.users.listRealmRoleMappings({ id: userId }));
      const target = mapped.find((candidate) => candidate.name === role);
      if (!target?.id || !target.name) return;
      const mapping = { id: target.id, name: target.name };
      await onAccount(() => admin.users.delRealmRoleMappings({ id: userId, roles: [mapping] }));
    },
  };
}
