// Builds the auth service's rules and adapters from its configuration; shared by the service's composition
// root and the admin command, so both act through the same identity provider.
import { randomBytes } from 'node:crypto';
import { eventsSchemaOf } from '@rotunda/events';
import { createSmtpMailer, type Logger, prismaAdapter } from '@rotunda/service-kit';
import { PrismaClient } from '../generated/prisma/client.ts';
import { type AccountRemover, prismaAccountDeletion } from './adapters/account-deletion.ts';
import { createAltchaCaptcha } from './adapters/altcha-captcha.ts';
import { NO_AGENCY_BROKER } from './adapters/builtin-agencies.ts';
import {
  type BuiltinIdentity,
  createBuiltinIdentity,
  deleteBuiltinAccount,
  REUSE_GRACE_SECONDS,
} from './adapters/builtin-identity.ts';
import { createKeycloakAgencies } from './adapters/keycloak-agencies.ts';
import { createKeycloakIdentity } from './adapters/keycloak-identity.ts';
import { prismaAgencies, prismaAgencySignIns } from './adapters/prisma-agencies.ts';
import { prismaExchangedRefreshTokens } from './adapters/prisma-exchanged-refresh-tokens.ts';
import {
  prismaAccessLists,
  prismaAdminLog,
  prismaEndedSessions,
  prismaOneTimeTokens,
  prismaSpentCaptchas,
} from './adapters/prisma-stores.ts';
import { createGrowingDelay, createWindowLimit } from './adapters/rate-limit.ts';
import type { AuthConfig } from './config.ts';
import { createAccessAdmin } from './domain/access-admin.ts';
import { createAgencies } from './domain/agencies.ts';
import { type AddressLimit, type AuthLimits, createAuthService } from './domain/auth-service.ts';
import type { AgencyBroker, AgencyStore, IdentityProvider } from './domain/ports.ts';

const HOUR = 3600;

/** The auth service's events schema: `account.deleted` is recorded in its outbox (ADR 0042). */
export const AUTH_EVENTS_SCHEMA = eventsSchemaOf('auth');

/**
 * How many more requests an IPv6 /48 may send than one /64 in it: a site's few subnets are not held to one
 * client's limit, while a client cycling through its /48's subnets gets only this many times as far.
 */
const NETWORK_FACTOR = 8;

/** The throttles, counted in the auth schema so that every replica shares them. */
function authLimits(prisma: PrismaClient, config: AuthConfig): AuthLimits {
  const perHour = (name: string, points: number) =>
    createWindowLimit(prisma, { name, points, windowSeconds: HOUR });
  const perAddressPerHour = (name: string, points: number): AddressLimit => ({
    host: perHour(name, points),
    network: perHour(`${name}/48`, points * NETWORK_FACTOR),
  });
  return {
    accountFailures: createGrowingDelay(prisma, {
      name: 'password:account',
      freeFailures: config.AUTH_LOGIN_FREE_FAILURES,
      firstDelaySeconds: config.AUTH_LOGIN_FIRST_DELAY_SECONDS,
      maxDelaySeconds: config.AUTH_LOGIN_MAX_DELAY_SECONDS,
      memorySeconds: 24 * HOUR,
    }),
    addressFailures: perAddressPerHour('password:address', config.AUTH_ADDRESS_FAILURES_PER_HOUR),
    register: {
      byAddress: perAddressPerHour('register:address', config.AUTH_ADDRESS_REQUESTS_PER_HOUR),
      byEmail: perHour('register:email', config.AUTH_EMAIL_REQUESTS_PER_HOUR),
    },
    checkEmail: {
      byAddress: perAddressPerHour('check-email:address', config.AUTH_ADDRESS_CHECKS_PER_HOUR),
      byEmail: perHour('check-email:email', config.AUTH_EMAIL_CHECKS_PER_HOUR),
    },
    passwordReset: {
      byAddress: perAddressPerHour('reset:address', config.AUTH_ADDRESS_REQUESTS_PER_HOUR),
      byEmail: perHour('reset:email', config.AUTH_EMAIL_REQUESTS_PER_HOUR),
    },
    refreshByAddress: perHour('refresh:address', config.AUTH_ADDRESS_REFRESHES_PER_HOUR),
    quotas: {
      'image-upload': perHour('quota:image-upload', config.AUTH_IMAGE_UPLOADS_PER_HOUR),
      'profile-read': createWindowLimit(prisma, {
        name: 'quota:profile-read',
        points: config.AUTH_PROFILE_READS_PER_MINUTE,
        windowSeconds: 60,
      }),
    },
  };
}

/**
 * The identity provider the configuration picks, its part of deleting an account, and the broker of agencies'
 * providers (Keycloak's; none with the built-in provider).
 */
function identityProvider(
  config: AuthConfig,
  prisma: PrismaClient,
  agencies: AgencyStore,
): {
  identity: IdentityProvider;
  builtin?: BuiltinIdentity;
  removeAccount: AccountRemover;
  broker: AgencyBroker;
} {
  if (config.IDENTITY_PROVIDER === 'builtin') {
    const builtin = createBuiltinIdentity({
      prisma,
      issuer: config.TOKEN_ISSUER,
      clientId: config.WEB_CLIENT_ID,
      accessTokenSeconds: config.AUTH_ACCESS_TOKEN_SECONDS,
      sessionIdleSeconds: config.AUTH_SESSION_IDLE_SECONDS,
      sessionMaxSeconds: config.AUTH_SESSION_MAX_SECONDS,
    });
    return {
      identity: builtin,
      builtin,
      removeAccount: (tx, userId) => deleteBuiltinAccount(tx, userId, config.AUTH_ACCESS_TOKEN_SECONDS),
      broker: NO_AGENCY_BROKER,
    };
  }
  const keycloak = createKeycloakIdentity({
    url: config.KEYCLOAK_URL ?? '',
    realm: config.KEYCLOAK_REALM,
    clientId: config.KEYCLOAK_CLIENT_ID,
    clientSecret: config.KEYCLOAK_CLIENT_SECRET ?? '',
    exchangedTokens: prismaExchangedRefreshTokens(prisma, { graceSeconds: REUSE_GRACE_SECONDS }),
    renewsWithAgency: async (alias) => (await agencies.find(alias))?.protocol === 'oidc',
  });
  // Keycloak's admin API is no part of the transaction: the user is deleted while it is open.
  const broker = createKeycloakAgencies({
    identity: keycloak,
    publicUrl: config.KEYCLOAK_PUBLIC_URL ?? config.KEYCLOAK_URL ?? '',
    realm: config.KEYCLOAK_REALM,
    clientId: config.KEYCLOAK_CLIENT_ID,
  });
  return { identity: keycloak, removeAccount: (_tx, userId) => keycloak.deleteUser(userId), broker };
}

export function wireAuth(config: AuthConfig, logger: Logger) {
  const prisma = new PrismaClient({
    adapter: prismaAdapter(config.DATABASE_URL, config.DATABASE_SCHEMA, config.DATABASE_POOL_SIZE),
  });
  const agencyStore = prismaAgencies(prisma);
  const { identity, builtin, removeAccount, broker } = identityProvider(config, prisma, agencyStore);
  if (!config.CAPTCHA_HMAC_KEY)
    logger.info('CAPTCHA_HMAC_KEY not set: captcha challenges are signed with a key made at start');
  const lists = prismaAccessLists(prisma);
  // An ended session's access tokens live at most their lifetime on; a minute more covers the gateways' clock
  // tolerance.
  const endedSessions = prismaEndedSessions(prisma, {
    schema: config.DATABASE_SCHEMA,
    retainSeconds: async () => (await identity.accessTokenSeconds()) + 60,
  });
  const adminLog = prismaAdminLog(prisma);
  const auth = createAuthService({
    identity,
    tokens: prismaOneTimeTokens(prisma),
    lists,
    mailer: createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM }),
    captcha: createAltchaCaptcha({
      hmacKey: config.CAPTCHA_HMAC_KEY ?? randomBytes(32).toString('hex'),
      maxNumber: config.CAPTCHA_MAX_NUMBER,
      markSpent: prismaSpentCaptchas(prisma),
    }),
    limits: authLimits(prisma, config),
    endedSessions,
    accounts: prismaAccountDeletion(prisma, {
      schema: config.DATABASE_SCHEMA,
      eventsSchema: AUTH_EVENTS_SCHEMA,
      remove: removeAccount,
    }),
    settings: {
      productName: 'Rotunda',
      accessEmail: config.ACCESS_EMAIL,
      confirmLinkHours: config.CONFIRM_LINK_HOURS,
      resetLinkMinutes: config.RESET_LINK_MINUTES,
    },
  });
  const access = createAccessAdmin({ identity, lists, log: adminLog });
  const agencies = createAgencies({
    identity,
    broker,
    store: agencyStore,
    signIns: prismaAgencySignIns(prisma, { schema: config.DATABASE_SCHEMA }),
    log: adminLog,
    endedSessions,
    // As many as the eligibility checks: an office behind one address signs in through its agency.
    startsByAddress: createWindowLimit(prisma, {
      name: 'agency-start:address',
      points: config.AUTH_ADDRESS_CHECKS_PER_HOUR,
      windowSeconds: HOUR,
    }),
    // Keycloak sends the logout token to the auth service's own client, signed with the realm's keys.
    logoutToken: { issuer: config.TOKEN_ISSUER, audience: config.KEYCLOAK_CLIENT_ID },
  });
  return { prisma, identity, builtin, lists, auth, access, agencies };
}
