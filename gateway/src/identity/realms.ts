// The identity provider's OpenID endpoints at Keycloak's paths (/realms/<realm>/...), so the shell's keycloak-js
// talks to the gateway exactly as to Keycloak: discovery, JWKS, the refresh-token grant and logout. Mounted whichever
// provider is configured (app.ts): the auth service answers each call from the built-in provider or forwards it to
// Keycloak, which refreshes tokens only for the client that obtained them. Errors here are OAuth's
// `{ error, error_description }`, as OAuth clients expect, not the REST API's `{ errors }`.
import type { TokenSet } from '@rotunda/protos/auth';
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import type { ServiceClients } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { httpErrorOf } from '../http/errors.ts';
import { microCache } from '../http/micro-cache.ts';

export interface RealmsRouterDependencies {
  clients: Pick<ServiceClients, 'auth' | 'deadlineMs'>;
  /** The one realm served; any other name answers 404 like Keycloak. */
  realm: string;
  /** The `iss` of the tokens the built-in provider issues (TOKEN_ISSUER). */
  issuer: string;
}

/** Refresh tokens from Keycloak are 1–2 kB; anything far beyond is not one. */
const MAX_REFRESH_TOKEN_LENGTH = 8192;
/** Browsers and proxies may keep discovery and keys this long; key rotation publishes the new key first. */
const PUBLIC_METADATA_MAX_AGE = 60;

function oauthError(res: Response, status: number, error: string, description: string): void {
  res.status(status).json({ error, error_description: description });
}

type FormField = { value: string } | { missing: true } | { repeated: true };

/** One form field; OAuth forbids sending a parameter twice (RFC 6749 §3.1). */
function formField(req: Request, name: string): FormField {
  const value: unknown = (req.body as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(value)) return { repeated: true };
  return typeof value === 'string' && value !== '' ? { value } : { missing: true };
}

export function realmsRouter({ clients, realm, issuer }: RealmsRouterDependencies): Router {
  const router = express.Router();
  // No access token comes here: the calls carry no caller.
  const rpc = serviceCaller(clients, 'auth');
  const jwks = microCache<unknown>(5_000);

  const discovery = {
    issuer,
    jwks_uri: `${issuer}/protocol/openid-connect/certs`,
    token_endpoint: `${issuer}/protocol/openid-connect/token`,
    end_session_endpoint: `${issuer}/protocol/openid-connect/logout`,
    // Sessions start at POST /auth/login; browsers only ever refresh them here. The password grant exists
    // inside the auth service but is not offered to browsers, and there is no authorization endpoint.
    grant_types_supported: ['refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    id_token_signing_alg_values_supported: ['RS256'],
    subject_types_supported: ['public'],
  };

  // Only OAuth's form encoding is read here; a small limit, as no form field is large.
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }));

  const realmRouter = express.Router();
  realmRouter.get('/.well-known/openid-configuration', (_req, res) => {
    res.setHeader('Cache-Control', `public, max-age=${PUBLIC_METADATA_MAX_AGE}`);
    res.json(discovery);
  });

  realmRouter.get('/protocol/openid-connect/certs', async (req, res) => {
    const keys = await jwks.get(async () => {
      const answer = await rpc(req, clients.auth.getJwks, {});
      return JSON.parse(answer.jwks_json) as unknown;
    });
    res.setHeader('Cache-Control', `public, max-age=${PUBLIC_METADATA_MAX_AGE}`);
    res.json(keys);
  });

  realmRouter.post('/protocol/openid-connect/token', async (req, res) => {
    // Token answers are secrets: never stored by a cache (RFC 6749 §5.1).
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    const grantType = formField(req, 'grant_type');
    if ('repeated' in grantType)
      return oauthError(res, 400, 'invalid_request', 'Duplicated form parameter: grant_type');
    if ('missing' in grantType)
      return oauthError(res, 400, 'invalid_request', 'Missing form parameter: grant_type');
    if (grantType.value !== 'refresh_token')
      return oauthError(res, 400, 'unsupported_grant_type', 'Unsupported grant_type');
    const refreshToken = formField(req, 'refresh_token');
    if ('repeated' in refreshToken)
      return oauthError(res, 400, 'invalid_request', 'Duplicated form parameter: refresh_token');
    if ('missing' in refreshToken)
      return oauthError(res, 400, 'invalid_request', 'Missing parameter: refresh_token');
    if (refreshToken.value.length > MAX_REFRESH_TOKEN_LENGTH)
      return oauthError(res, 400, 'invalid_grant', 'Invalid refresh token');
    // client_id is accepted and not checked: the only client is the public web app, which has no secret,
    // so the refresh token itself is the credential.
    let tokens: TokenSet;
    try {
      // The address counts against the renewals' rate limit: a script hammering this endpoint meets it.
      tokens = await rpc(req, clients.auth.refreshTokens, {
        refresh_token: refreshToken.value,
        client_ip: req.ip ?? '',
      });
    } catch (error) {
      const { status } = httpErrorOf(error);
      // Expired, revoked (logout, password reset) or forged: Keycloak's answer for a session that ended.
      if (status >= 400 && status < 500 && status !== 429)
        return oauthError(res, 400, 'invalid_grant', 'Session not active');
      throw error;
    }
    res.json({
      access_token: tokens.access_token,
      expires_in: tokens.expires_in,
      refresh_expires_in: tokens.refresh_expires_in,
      refresh_token: tokens.refresh_token,
      token_type: tokens.token_type || 'Bearer',
      session_state: tokens.session_state,
      scope: tokens.scope,
    });
  });

  realmRouter.post('/protocol/openid-connect/logout', async (req, res) => {
    const refreshToken = formField(req, 'refresh_token');
    if (!('value' in refreshToken)) return oauthError(res, 400, 'invalid_request', 'No refresh token');
    if (refreshToken.value.length > MAX_REFRESH_TOKEN_LENGTH)
      return oauthError(res, 400, 'invalid_grant', 'Invalid refresh token');
    try {
      await rpc(req, clients.auth.logout, { refresh_token: refreshToken.value });
    } catch (error) {
      const { status } = httpErrorOf(error);
      if (status >= 400 && status < 500 && status !== 429)
        return oauthError(res, 400, 'invalid_grant', 'Invalid refresh token');
      throw error;
    }
    res.status(204).end();
  });

  realmRouter.use((req, res) => {
    oauthError(res, 404, 'not_found', `No such endpoint: ${req.method} ${req.originalUrl}`);
  });

  // Realm names are case-sensitive in Keycloak, while Express paths are not: compare the name exactly.
  router.use(
    '/:realm',
    (req, res, next) => {
      if (req.params.realm === realm) return next();
      oauthError(res, 404, 'Realm does not exist', 'Realm does not exist');
    },
    realmRouter,
  );
  router.use((req, res) => {
    oauthError(res, 404, 'not_found', `No such endpoint: ${req.method} ${req.originalUrl}`);
  });

  const oauthErrors: ErrorRequestHandler = (error, req, res, _next) => {
    const { status, message, retryAfter } = httpErrorOf(error);
    if (status >= 500) req.log.error({ err: error }, 'request failed');
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    const code =
      status < 500
        ? 'invalid_request'
        : status === 503 || status === 504
          ? 'temporarily_unavailable'
          : 'server_error';
    oauthError(res, status, code, message);
  };
  router.use(oauthErrors);
  return router;
}
