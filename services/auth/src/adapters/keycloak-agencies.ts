// The identity broker port through Keycloak: each agency's identity provider is an identity provider instance in
// the realm (alias = the agency's), created from the provider's own metadata through the admin REST API, with its
// client secret kept by Keycloak alone. A person is sent to Keycloak's authorization endpoint with kc_idp_hint,
// which takes them straight on to their agency, and comes back with a code the auth service's client exchanges.
import { NetworkError } from '@keycloak/keycloak-admin-client';
import { AGENCY_MESSAGES } from '@rotunda/rules';
import { DomainError, invalidArgument } from '@rotunda/service-kit';
import type { AgencyBroker } from '../domain/ports.ts';
import type { KeycloakIdentity } from './keycloak-identity.ts';

export interface KeycloakAgenciesOptions {
  identity: Pick<KeycloakIdentity, 'oidc' | 'withAdmin' | 'deleteUser'>;
  /** The address browsers and agencies reach Keycloak at (no /realms suffix). */
  publicUrl: string;
  realm: string;
  /** The auth service's confidential client, which the brokered sign-ins are for. */
  clientId: string;
}

/** Keycloak's flow for a person's first brokered sign-in: it makes the account, or links an existing one after proof. */
const FIRST_BROKER_LOGIN = 'first broker login';
const SAML_ATTRIBUTES = ['email', 'firstName', 'lastName'] as const;

/** The one policy, in the realm's fine-grained admin permissions, that lets the auth service exchange for agencies' tokens. */
const EXCHANGE_POLICY = 'rotunda-auth exchanges for agencies tokens';

const statusOf = (error: unknown) => (error instanceof NetworkError ? error.response.status : undefined);

export function createKeycloakAgencies(options: KeycloakAgenciesOptions): AgencyBroker {
  const { identity, realm } = options;
  const realmUrl = `${options.publicUrl.replace(/\/+$/, '')}/realms/${encodeURIComponent(realm)}`;

  async function imported(providerId: 'oidc' | 'saml', fromUrl: string): Promise<Record<string, string>> {
    try {
      return await identity.withAdmin((admin) =>
        admin.identityProviders.importFromUrl({ providerId, fromUrl }),
      );
    } catch (error) {
      // Keycloak answers 400 or 500 when it cannot fetch or parse the document; 401 and 403 are our own setup.
      const status = statusOf(error);
      if (status !== undefined && status !== 401 && status !== 403) {
        throw invalidArgument(AGENCY_MESSAGES.metadataUnreadable(fromUrl));
      }
      throw error;
    }
  }

  /**
   * Lets the auth service's client exchange a member's token for this agency's, which is how a renewal asks the
   * agency again (ADR 0044): the identity provider's permissions switched on, and its token-exchange permission
   * given the client policy (made once for every agency).
   */
  async function allowExchange(alias: string): Promise<void> {
    const reference = await identity.withAdmin((admin) =>
      admin.identityProviders.updatePermission({ alias }, { enabled: true }),
    );
    const permissionId = reference.scopePermissions?.['token-exchange'];
    const [management] = await identity.withAdmin((admin) =>
      admin.clients.find({ clientId: 'realm-management' }),
    );
    const [self] = await identity.withAdmin((admin) => admin.clients.find({ clientId: options.clientId }));
    const id = management?.id;
    if (!permissionId || !id || !self?.id) {
      throw new Error(
        `Keycloak realm '${realm}' offers no token-exchange permission for identity provider '${alias}'`,
      );
    }
    const found = await identity
      .withAdmin((admin) => admin.clients.findPolicyByName({ id, name: EXCHANGE_POLICY }))
      .catch((error: unknown) => {
        if (statusOf(error) === 404) return undefined;
        throw error;
      });
    // The client policy's own shape: the admin client's type knows only the generic one.
    const clientPolicy = { name: EXCHANGE_POLICY, clients: [self.id] };
    // Keycloak answers an empty body for a name it does not know.
    const policyId =
      (found || undefined)?.id ??
      (await identity.withAdmin((admin) => admin.clients.createPolicy({ id, type: 'client' }, clientPolicy)))
        .id;
    const [permission, resources, scopes] = await Promise.all([
      identity.withAdmin((admin) => admin.clients.findOnePermission({ id, type: 'scope', permissionId })),
      identity.withAdmin((admin) => admin.clients.getAssociatedResources({ id, permissionId })),
      identity.withAdmin((admin) => admin.clients.getAssociatedScopes({ id, permissionId })),
    ]);
    // Keycloak's PUT replaces the permission: its resource and scope go back with the policy added.
    await identity.withAdmin((admin) =>
      admin.clients.updatePermission(
        { id, type: 'scope', permissionId },
        {
          ...permission,
          resources: resources.map((resource) => resource._id),
          scopes: scopes.map((scope) => scope.id),
          policies: [policyId as string],
        },
      ),
    );
  }

  return {
    available: true,

    async register(agency) {
      const common = {
        alias: agency.alias,
        displayName: agency.name,
        providerId: agency.protocol,
        enabled: true,
        // The agency vouches for the email: the account Keycloak makes has it confirmed.
        trustEmail: true,
        // Kept by Keycloak for the exchange a renewal makes, which refreshes them at the agency (ADR 0044).
        storeToken: agency.protocol === 'oidc',
        firstBrokerLoginFlowAlias: FIRST_BROKER_LOGIN,
      };
      const metadata = await imported(agency.protocol, agency.metadataUrl);
      const representation =
        agency.protocol === 'oidc'
          ? {
              ...common,
              config: {
                ...metadata,
                clientId: agency.clientId,
                clientSecret: agency.clientSecret,
                clientAuthMethod: 'client_secret_post',
                defaultScope: 'openid email profile',
                syncMode: 'IMPORT',
                backchannelSupported: 'true',
                pkceEnabled: 'true',
                pkceMethod: 'S256',
                validateSignature: 'true',
                useJwksUrl: 'true',
                // Passes the email typed in Rotunda's dialog on, so the agency's page asks only for the password.
                loginHint: 'true',
              },
            }
          : {
              ...common,
              config: {
                ...metadata,
                entityId: realmUrl,
                nameIDPolicyFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
                principalType: 'SUBJECT',
                postBindingResponse: 'true',
                postBindingAuthnRequest: 'true',
                postBindingLogout: 'true',
                backchannelSupported: 'true',
                syncMode: 'IMPORT',
                wantAuthnRequestsSigned: 'false',
              },
            };
      try {
        await identity.withAdmin((admin) => admin.identityProviders.create(representation));
      } catch (error) {
        if (statusOf(error) === 409) {
          throw new DomainError(
            'already_exists',
            `Keycloak already has an identity provider '${agency.alias}'.`,
          );
        }
        throw error;
      }
      if (agency.protocol === 'oidc') {
        try {
          await allowExchange(agency.alias);
        } catch (error) {
          // Without it every renewal of its members would fail: no provider at all is better.
          await this.unregister(agency.alias);
          throw error;
        }
        return;
      }
      try {
        for (const attribute of SAML_ATTRIBUTES) {
          await identity.withAdmin((admin) =>
            admin.identityProviders.createMapper({
              alias: agency.alias,
              identityProviderMapper: {
                name: attribute,
                identityProviderAlias: agency.alias,
                identityProviderMapper: 'saml-user-attribute-idp-mapper',
                config: { 'attribute.name': attribute, 'user.attribute': attribute, syncMode: 'INHERIT' },
              },
            }),
          );
        }
      } catch (error) {
        // Without its mappers the provider would make accounts without an email: none at all is better.
        await this.unregister(agency.alias);
        throw error;
      }
    },

    async unregister(alias) {
      try {
        await identity.withAdmin((admin) => admin.identityProviders.del({ alias }));
      } catch (error) {
        if (statusOf(error) !== 404) throw error;
      }
    },

    endpoints(alias, protocol) {
      const broker = `${realmUrl}/broker/${encodeURIComponent(alias)}`;
      return {
        redirectUri: `${broker}/endpoint`,
        // OIDC agencies post logout tokens to the realm's own endpoint, which finds the brokered sessions by the
        // agency's session id (the broker's backchannel_logout path answers 404); SAML's single logout goes to the
        // broker endpoint.
        logoutUrl:
          protocol === 'oidc'
            ? `${realmUrl}/protocol/openid-connect/logout/backchannel-logout`
            : `${broker}/endpoint`,
        spMetadataUrl: protocol === 'saml' ? `${broker}/endpoint/descriptor` : '',
      };
    },

    authorizationUrl(request) {
      const url = new URL(`${realmUrl}/protocol/openid-connect/auth`);
      url.search = new URLSearchParams({
        client_id: options.clientId,
        response_type: 'code',
        scope: 'openid',
        redirect_uri: request.redirectUri,
        state: request.state,
        nonce: request.nonce,
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
        kc_idp_hint: request.alias,
        login_hint: request.email,
      }).toString();
      return url.href;
    },

    exchangeCode: (request) =>
      identity.oidc.codeGrant(request.code, request.codeVerifier, request.redirectUri),

    async federatedLinks(userId) {
      try {
        const links = await identity.withAdmin((admin) =>
          admin.users.listFederatedIdentities({ id: userId }),
        );
        return links.map((link) => link.identityProvider).filter((alias): alias is string => !!alias);
      } catch (error) {
        if (statusOf(error) === 404) return [];
        throw error;
      }
    },

    async deleteUser(userId) {
      await identity.deleteUser(userId);
    },
  };
}
