// The gateway's request log: one short line per request, under the request id the caller gave (when it is
// well-formed) or a new one, which the answer carries in x-request-id. Never the headers: they carry cookies and
// tokens. Health checks are not logged.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Logger, REQUEST_ID_HEADER } from '@rotunda/service-kit';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';

const REQUEST_ID = /^[\w.:-]{1,128}$/;
/** pino-http's words for an answered request; the early answers use them too, so the log reads as one. */
const COMPLETED = 'request completed';

/** The request's id: the caller's x-request-id when well-formed, else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export function requestLogs(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId(req, res) {
      const id = requestIdOf(req);
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
      }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
  });
}

/** The line `requestLogs` writes, for a request answered (successfully) ahead of it. */
export function logAnswered(
  logger: Logger,
  req: IncomingMessage,
  answered: { id: string; status: number; startedAt: number },
) {
  if (!logger.isLevelEnabled('info')) return;
  logger.info(
    {
      req: { id: answered.id, method: req.method, url: req.url },
      res: { status: answered.status },
      responseTime: Date.now() - answered.startedAt,
    },
    COMPLETED,
  );
}
