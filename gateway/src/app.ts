// The gateway's Express application: security headers, request ids and logs, traces and metrics, compressed
// answers, access-token verification (with the moderation snapshot's suspensions), the documented REST paths, the
// built-in identity provider's OpenID endpoints, JSON errors, and (in the one-machine default) the web apps. It
// owns no data.
import { randomUUID } from 'node:crypto';
import { createObjectStore, type ObjectStore, objectStoreConfigFrom } from '@rotunda/images';
import type { Logger } from '@rotunda/service-kit';
import express, { type Express } from 'express';
import type { EndedSessions } from './auth/ended-sessions.ts';
import { cachedJwks, type JwksCacheOptions, remoteJwks } from './auth/jwks.ts';
import { authenticate } from './auth/middleware.ts';
import {
  type ModerationSnapshot,
  moderationSnapshotFromPost,
  watchModerationSnapshot,
} from './auth/moderation-snapshot.ts';
import { createTokenVerifier, type TokenVerifier } from './auth/verify.ts';
import type { GatewayConfig } from './config.ts';
import { call, type ServiceClients } from './grpc/clients.ts';
import { compressAnswers } from './http/compression.ts';
import { apiNotFound, errorHandler } from './http/errors.ts';
import { type FeedPages, feedPages } from './http/feed-pages.ts';
import { readIdempotencyKey } from './http/idempotency-key.ts';
import { refuseNul } from './http/nul.ts';
import { postPages } from './http/post-pages.ts';
import { requestLogs } from './http/request-log.ts';
import { securityHeaders } from './http/security-headers.ts';
import { type UnreadStreams, unreadStreams } from './http/unread-streams.ts';
import { uploadAdmission } from './http/upload-admission.ts';
import { pagesRouter, urlPageSources, webBuildsPresent, webRouter } from './http/web.ts';
import { realmsRouter } from './identity/realms.ts';
import { adminRouter } from './routes/admin.ts';
import { authRouter } from './routes/auth.ts';
import { healthRouter, type Readiness, readyRouter } from './routes/health.ts';
import { historyRouter } from './routes/history.ts';
import { issuesRouter } from './routes/issues.ts';
import { meRouter } from './routes/me.ts';
import { mediaRouter } from './routes/media.ts';
import { moderationRouter } from './routes/moderation.ts';
import { newsRouter } from './routes/news.ts';
import { notificationsRouter } from './routes/notifications.ts';
import { orgsRouter } from './routes/orgs.ts';
import { postsRouter } from './routes/posts.ts';
import { profilesRouter } from './routes/profiles.ts';
import { API_BODY_LIMIT, bodyReadAhead, FEED_PATH, visitorFeed } from './routes/visitor-feed.ts';
import { httpTelemetry } from './telemetry/http.ts';

export interface AppDependencies {
  config: GatewayConfig;
  clients: ServiceClients;
  services: Readiness['services'];
  /** What each service says of its database, for /healthz's detail. */
  dependencies?: Readiness['dependencies'];
  logger: Logger;
  /** How the identity provider's keys are cached (tests shorten the cooldown). */
  jwksCache?: JwksCacheOptions;
  /** Sessions that ended before their time: their access tokens are refused (see auth/ended-sessions.ts). */
  endedSessions?: EndedSessions;
  /** Where /media/ reads images; default: the S3 endpoint the S3_* settings name. */
  objectStore?: ObjectStore;
  /** The feed's kept pages; default: kept until the post service's feed version moves. */
  pages?: FeedPages;
  /**
   * Running suspensions and hidden authors (auth/moderation-snapshot.ts); default: asked of the post service
   * every second for the life of the process.
   */
  moderation?: ModerationSnapshot;
  /**
   * The live unread counts this process holds (http/unread-streams.ts); default: one watch of the notification
   * service, opened with the first stream. Whoever makes the app closes it when the process stops.
   */
  streams?: UnreadStreams;
}

/**
 * Verifies access tokens against Keycloak's published keys when JWKS_URL is set, else against the built-in
 * provider's keys, which the auth service hands out over gRPC.
 */
export function tokenVerifier(
  config: GatewayConfig,
  clients: Pick<ServiceClients, 'auth' | 'deadlineMs'>,
  jwksCache: JwksCacheOptions = {},
  endedSessions?: EndedSessions,
): TokenVerifier {
  const keys = config.JWKS_URL
    ? remoteJwks(config.JWKS_URL, jwksCache)
    : cachedJwks(async () => {
        const answer = await call(
          'auth',
          clients.auth,
          clients.auth.getJwks,
          {},
          {
            requestId: `jwks-${randomUUID()}`,
            deadlineMs: clients.deadlineMs,
          },
        );
        return JSON.parse(answer.jwks_json);
      }, jwksCache);
  return createTokenVerifier({
    issuer: config.TOKEN_ISSUER,
    keys,
    clients: config.TOKEN_CLIENT_IDS,
    ...(endedSessions ? { isEnded: (sessionId: string) => endedSessions.has(sessionId) } : {}),
  });
}

export function createApp({
  config,
  clients,
  services,
  dependencies,
  logger,
  jwksCache,
  endedSessions,
  objectStore = createObjectStore(objectStoreConfigFrom(config)),
  pages = feedPages({ clients, cacheSeconds: config.PUBLIC_CACHE_SECONDS, logger }),
  moderation = watchModerationSnapshot({ load: moderationSnapshotFromPost(clients), logger }),
  streams = unreadStreams({ clients, logger, atOnce: config.NOTIFICATION_STREAMS_AT_ONCE, endedSessions }),
}: AppDependencies): Express {
  // A move of the feed may be a hiding: the moderation snapshot is asked again before members read pages.
  pages.onChange(() => moderation.outdated());
  const app = express();
  app.disable('x-powered-by');
  // req.ip and req.protocol come from the forwarded headers only when the peer is a trusted proxy.
  app.set('trust proxy', config.TRUST_PROXY);
  // A visitor's kept feed page is answered first, ahead of everything below, which it does itself (ADR 0032).
  app.post(FEED_PATH, visitorFeed({ pages, logger }));
  app.use(securityHeaders());
  app.use(requestLogs(logger));
  // After the request id is given, so the request's span carries it.
  app.use(httpTelemetry(app));
  // Images are already compressed: they skip the compression wrapper, whose own 'close' listener took a streamed
  // image's answer past Node's ten-listener warning.
  app.use('/media', mediaRouter(objectStore));
  app.use(compressAnswers());

  const webBuilt = config.SERVE_WEB ? () => webBuildsPresent(config.WEB_ROOT) : undefined;
  app.use(
    '/healthz',
    healthRouter({
      services,
      dependencies,
      webBuilt,
      endedSessions: endedSessions && (() => endedSessions.health()),
      moderationSnapshot: () => moderation.health(),
    }),
  );
  app.use('/readyz', readyRouter({ webBuilt }));
  const verifyToken = tokenVerifier(config, clients, jwksCache, endedSessions);
  const withCaller = authenticate(verifyToken, moderation);
  // Every /api call knows its caller; a token that fails verification answers 401 there, even on public
  // reads, so a member whose session ended finds out. /auth verifies only on its member-only calls.
  app.use(
    '/api',
    readIdempotencyKey,
    bodyReadAhead,
    express.json({ limit: API_BODY_LIMIT }),
    refuseNul,
    withCaller,
  );
  app.use('/api/news', newsRouter(clients, config.PUBLIC_CACHE_SECONDS));
  // One admission for logos and pictures alike: the bodies held at once are this process's, whichever route.
  const uploads = uploadAdmission(clients, {
    atOnce: config.UPLOADS_AT_ONCE,
    perMember: config.UPLOADS_AT_ONCE_PER_MEMBER,
  });
  app.use('/api/orgs', orgsRouter(clients, uploads));
  app.use('/api/profiles', profilesRouter(clients, config.DIRECTORY_CACHE_SECONDS, uploads));
  app.use('/api/history', historyRouter(clients));
  app.use('/api/issues', issuesRouter(clients));
  app.use('/api/posts', postsRouter(clients, config.PUBLIC_CACHE_SECONDS, pages, moderation));
  app.use('/api', moderationRouter(clients, pages, moderation));
  app.use('/api/notifications', notificationsRouter(clients, streams));
  app.use('/api/me', meRouter(clients, streams, endedSessions, config.PASSWORD_DEADLINE_MS));
  app.use('/api/admin', adminRouter(clients));
  app.use(
    '/auth',
    express.json({ limit: '64kb' }),
    refuseNul,
    authRouter({
      clients,
      authenticate: withCaller,
      verifyToken,
      publicUrl: config.PUBLIC_URL,
      passwordDeadlineMs: config.PASSWORD_DEADLINE_MS,
    }),
  );
  // The browser refreshes and ends sessions here in both modes: the auth service forwards to whichever
  // identity provider is configured (Keycloak only refreshes tokens for the client that obtained them).
  app.use('/realms', realmsRouter({ clients, realm: config.REALM, issuer: config.TOKEN_ISSUER }));
  app.get('/app-config.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json({
      accessEmail: config.ACCESS_EMAIL,
      // The configured public origin, never the request's Host header: a forged Host must not send a
      // browser's token renewals (or a cache's copy of this answer) to another origin.
      identity: {
        url: config.PUBLIC_URL,
        realm: config.REALM,
        clientId: config.WEB_CLIENT_ID,
      },
    });
  });
  app.use(['/api', '/auth', '/media', '/realms'], apiNotFound);
  // The sitemap, robots.txt and the preview card, also when the web builds are served elsewhere (nginx).
  const squarePages = postPages({
    clients,
    pages,
    publicUrl: config.PUBLIC_URL,
    cacheSeconds: config.PUBLIC_CACHE_SECONDS,
  });
  app.use(squarePages.router);
  const squarePaths = { pages: squarePages, publicUrl: config.PUBLIC_URL };
  if (config.SERVE_WEB) app.use(webRouter(config.WEB_ROOT, config.REMOTES_CONFIG, squarePaths));
  else if (config.SHELL_PAGE_URL && config.FEED_MANIFEST_URL)
    // nginx serves the builds and sends the square and post addresses here, to be drawn from its own files.
    app.use(pagesRouter(urlPageSources(config.SHELL_PAGE_URL, config.FEED_MANIFEST_URL), squarePaths));
  app.use(errorHandler);
  return app;
}
