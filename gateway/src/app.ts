// The gateway's Express application: security headers, request ids and logs, the documented REST paths,
// JSON errors, and (in the one-machine default) the web apps. It owns no data.
import { randomUUID } from 'node:crypto';
import { type Logger, REQUEST_ID_HEADER } from '@rotunda/service-kit';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { GatewayConfig } from './config.ts';
import type { ServiceClients } from './grpc/clients.ts';
import { apiNotFound, errorHandler } from './http/errors.ts';
import { webBuildsPresent, webRouter } from './http/web.ts';
import { healthRouter, type Readiness } from './routes/health.ts';
import { newsRouter } from './routes/news.ts';

export interface AppDependencies {
  config: GatewayConfig;
  clients: ServiceClients;
  services: Readiness['services'];
  logger: Logger;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function createApp({ config, clients, services, logger }: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          // Rsbuild injects the apps' CSS through style elements.
          'style-src': ["'self'", "'unsafe-inline'"],
          // Headline and organization logos may live on their publishers' hosts.
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          'connect-src': ["'self'"],
          'frame-ancestors': ["'none'"],
          'object-src': ["'none'"],
          'upgrade-insecure-requests': null,
        },
      },
      // Served over plain HTTP on one machine; TLS and HSTS belong to the ingress in production.
      strictTransportSecurity: false,
    }),
  );
  app.use(
    pinoHttp({
      logger,
      genReqId(req, res) {
        const given = req.headers[REQUEST_ID_HEADER];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader(REQUEST_ID_HEADER, id);
        return id;
      },
      // One short line per request: the full headers would put cookies and tokens in the logs.
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
        }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
      autoLogging: { ignore: (req) => req.url === '/healthz' },
    }),
  );

  app.use(
    '/healthz',
    healthRouter({
      services,
      webBuilt: config.SERVE_WEB ? () => webBuildsPresent(config.WEB_ROOT) : undefined,
    }),
  );
  app.use('/api', express.json({ limit: '1mb' }));
  app.use('/api/news', newsRouter(clients, config.PUBLIC_CACHE_SECONDS));
  app.use(['/api', '/auth', '/media'], apiNotFound);
  if (config.SERVE_WEB) app.use(webRouter(config.WEB_ROOT, config.REMOTES_CONFIG));
  app.use(errorHandler);
  return app;
}
