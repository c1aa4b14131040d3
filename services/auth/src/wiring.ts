// Builds the auth service's rules and adapters from its configuration; shared by the service's composition
// root and the admin command, so both act through the same identity provider.
import { randomBytes } from 'node:crypto';
import { type Logger, prismaAdapter } from '@rotunda/service-kit';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createAltchaCaptcha } from './adapters/altcha-captcha.ts';
import { createBuiltinIdentity } from './adapters/builtin-identity.ts';
import { createKeycloakIdentity } from './adapters/keycloak-identity.ts';
import { prismaAccessLists, prismaOneTimeTokens, prismaSpentCaptchas } from './adapters/prisma-stores.ts';
import { createRateLimit } from './adapters/rate-limit.ts';
import { createSmtpMailer } from './adapters/smtp-mailer.ts';
import type { AuthConfig } from './config.ts';
import { createAuthService } from './domain/auth-service.ts';
import type { IdentityProvider } from './domain/ports.ts';

export function wireAuth(config: AuthConfig, logger: Logger) {
  const prisma = new PrismaClient({ adapter: prismaAdapter(config.DATABASE_URL, config.DATABASE_SCHEMA) });
  const builtin =
    config.IDENTITY_PROVIDER === 'builtin'
      ? createBuiltinIdentity({
          prisma,
          issuer: config.TOKEN_ISSUER,
          clientId: config.WEB_CLIENT_ID,
          accessTokenSeconds: config.AUTH_ACCESS_TOKEN_SECONDS,
          sessionIdleSeconds: config.AUTH_SESSION_IDLE_SECONDS,
          sessionMaxSeconds: config.AUTH_SESSION_MAX_SECONDS,
        })
      : undefined;
  const identity: IdentityProvider =
    builtin ??
    createKeycloakIdentity({
      url: config.KEYCLOAK_URL ?? '',
      realm: config.KEYCLOAK_REALM,
      clientId: config.KEYCLOAK_CLIENT_ID,
      clientSecret: config.KEYCLOAK_CLIENT_SECRET ?? '',
    });
  if (!config.CAPTCHA_HMAC_KEY)
    logger.info('CAPTCHA_HMAC_KEY not set: captcha challenges are signed with a key made at start');
  const lists = prismaAccessLists(prisma);
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
    // Ten tries per account and fifty per address in fifteen minutes, then a fifteen-minute pause: enough
    // for a person who mistypes, too few for guessing, and never a permanent lock-out.
    loginLimit: createRateLimit({ points: 10, durationSeconds: 900, blockSeconds: 900 }),
    // Reset mails: enough for an office sharing one address, too few to flood anyone's inbox.
    resetLimit: createRateLimit({ points: 20, durationSeconds: 3600, blockSeconds: 3600 }),
    settings: {
      productName: 'Rotunda',
      accessEmail: config.ACCESS_EMAIL,
      confirmLinkHours: config.CONFIRM_LINK_HOURS,
      resetLinkMinutes: config.RESET_LINK_MINUTES,
    },
  });
  return { prisma, identity, builtin, lists, auth };
}
