// The auth service's configuration, validated at start-up.
import { envPositiveInt, serviceConfigSchema } from '@rotunda/service-kit';
import { z } from 'zod';

export const authConfigSchema = serviceConfigSchema('auth', 50051)
  .extend({
    /** builtin: accounts and tokens here; keycloak: a Keycloak realm (KEYCLOAK_* below). */
    IDENTITY_PROVIDER: z.enum(['builtin', 'keycloak']).default('builtin'),
    /** The tokens' issuer: the built-in provider's realm URL as the gateway serves it. */
    TOKEN_ISSUER: z.url().default('http://localhost:8080/realms/rotunda'),
    WEB_CLIENT_ID: z.string().default('rotunda-web'),
    /**
     * Access-token lifetime of the built-in provider: the gateways keep refusing an ended session's tokens this
     * long. Keycloak's is read from the realm.
     */
    AUTH_ACCESS_TOKEN_SECONDS: envPositiveInt(300),
    AUTH_SESSION_IDLE_SECONDS: envPositiveInt(1800),
    AUTH_SESSION_MAX_SECONDS: envPositiveInt(36_000),
    KEYCLOAK_URL: z.url().optional(),
    /**
     * Where browsers and agencies' identity providers reach Keycloak (brokered sign-in, the addresses an agency's
     * IT office is given); KEYCLOAK_URL when unset.
     */
    KEYCLOAK_PUBLIC_URL: z.url().optional(),
    KEYCLOAK_REALM: z.string().default('rotunda'),
    KEYCLOAK_CLIENT_ID: z.string().default('rotunda-auth'),
    KEYCLOAK_CLIENT_SECRET: z.string().optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/\S+$/, 'must be an smtp:// URL')
      .default('smtp://127.0.0.1:1025'),
    MAIL_FROM: z.string().default('Rotunda <no-reply@rotunda.example>'),
    /** Where people who cannot register ask for access; named in mails and on the register form. */
    ACCESS_EMAIL: z.email().default('membership@rotunda.example'),
    /** Signs captcha challenges; random per start when unset (set it when several replicas run). */
    CAPTCHA_HMAC_KEY: z.string().min(16).optional(),
    /** The proof of work's size: the browser tries up to this many numbers. */
    CAPTCHA_MAX_NUMBER: envPositiveInt(50_000),
    CONFIRM_LINK_HOURS: envPositiveInt(24),
    RESET_LINK_MINUTES: envPositiveInt(60),
    /**
     * Password tries an account may make before it waits (forgotten a day after the first, at a login or a
     * completed reset); tries sent at once count each.
     */
    AUTH_LOGIN_FREE_FAILURES: envPositiveInt(5),
    /** The wait after the first try beyond the free ones; it doubles with each further failure… */
    AUTH_LOGIN_FIRST_DELAY_SECONDS: envPositiveInt(15),
    /** …up to this (never a permanent lock). */
    AUTH_LOGIN_MAX_DELAY_SECONDS: envPositiveInt(900),
    /**
     * Password tries one address (IPv4, or IPv6 /64; a /48 may send 8 times as many) may make in an hour, all
     * but the right ones: an office of hundreds behind one address never meets it; guessing across many
     * accounts, or keeping one account slowed down, does.
     */
    AUTH_ADDRESS_FAILURES_PER_HOUR: envPositiveInt(500),
    /** Registrations (and, apart, reset requests) one address may send in an hour. */
    AUTH_ADDRESS_REQUESTS_PER_HOUR: envPositiveInt(100),
    /** Registrations (and, apart, reset requests) naming one email in an hour: each sends that inbox a mail. */
    AUTH_EMAIL_REQUESTS_PER_HOUR: envPositiveInt(5),
    /**
     * Token renewals one address may ask for in an hour: a member's tabs renew every few minutes, so this lets an
     * office of a few thousand through and stops a script hammering the token endpoint.
     */
    AUTH_ADDRESS_REFRESHES_PER_HOUR: envPositiveInt(20_000),
    /** Eligibility checks (the register form asks as the email is typed) one address may make in an hour. */
    AUTH_ADDRESS_CHECKS_PER_HOUR: envPositiveInt(1000),
    /** Eligibility checks of one email in an hour. */
    AUTH_EMAIL_CHECKS_PER_HOUR: envPositiveInt(30),
    /** Images one member may store in an hour (logos, profile pictures), asked by the gateway (ConsumeQuota). */
    AUTH_IMAGE_UPLOADS_PER_HOUR: envPositiveInt(30),
    /**
     * Other members' profile pages one member may read in a minute: more than a person browsing ever opens,
     * far fewer than a script copying the directory's personal details.
     */
    AUTH_PROFILE_READS_PER_MINUTE: envPositiveInt(60),
  })
  .refine(
    (config) =>
      config.IDENTITY_PROVIDER !== 'keycloak' || (config.KEYCLOAK_URL && config.KEYCLOAK_CLIENT_SECRET),
    {
      message: 'KEYCLOAK_URL and KEYCLOAK_CLIENT_SECRET are required when IDENTITY_PROVIDER=keycloak',
      path: ['IDENTITY_PROVIDER'],
    },
  );

export type AuthConfig = z.infer<typeof authConfigSchema>;
