// POST /api/posts/all for a visitor whose page is kept: answered ahead of the request pipeline (ADR 0032). The
// public square is what every visitor reads first and most, and a kept page is a lookup; the pipeline around it
// (routers, logs, body checks, token check, compression wrapper) took most of the time of such an answer. The
// answer is the pipeline's to the byte: the same security headers (helmet's, recorded once), request id, caching
// headers and pre-compressed body, counted, timed, traced and logged as the pipeline would. Everything else goes
// on down the pipeline unchanged: members (any token, valid or not), bodies the route refuses, pages not kept,
// "My issue areas"; the body, once read here, is not read again, and a body that cannot be read is refused
// where the pipeline reads bodies (`bodyReadAhead`).
import type { IncomingMessage } from 'node:http';
import { type Logger, REQUEST_ID_HEADER } from '@rotunda/service-kit';
import express, { type RequestHandler } from 'express';
import { tokenOf } from '../auth/middleware.ts';
import { type FeedPages, VISITOR_PAGE_CACHING } from '../http/feed-pages.ts';
import { answerParts } from '../http/micro-cache.ts';
import { logAnswered, requestIdOf } from '../http/request-log.ts';
import { securityHeaderList } from '../http/security-headers.ts';
import { recordAnswered } from '../telemetry/http.ts';
import { feedPageKey, validFeedRequest } from './posts.ts';

/** Where the feed is read: the lane is mounted on it alone. */
export const FEED_PATH = '/api/posts/all';
/** The API's body limit: a body is read once, here or in the pipeline, with the same limit. */
export const API_BODY_LIMIT = '1mb';

const BODY_ERROR = Symbol('rotunda.bodyError');
type LaneRequest = IncomingMessage & { [BODY_ERROR]?: unknown };

/** In the pipeline where bodies are read: a body the lane could not read is refused there, as any other. */
export const bodyReadAhead: RequestHandler = (req, _res, next) => next((req as LaneRequest)[BODY_ERROR]);

export function visitorFeed({ pages, logger }: { pages: FeedPages; logger: Logger }): RequestHandler {
  const readBody = express.json({ limit: API_BODY_LIMIT });
  const security = securityHeaderList();
  return (req, res, next) => {
    if (tokenOf(req) !== undefined) return next();
    const started = performance.now();
    const startedAt = Date.now();
    readBody(req, res, (error?: unknown) => {
      if (error) {
        (req as LaneRequest)[BODY_ERROR] = error;
        return next();
      }
      const request = validFeedRequest(req.body);
      const answer = request && !request.my_issues ? pages.keptForVisitor(feedPageKey(request)) : undefined;
      if (!answer) return next();
      const id = requestIdOf(req);
      const { body, headers } = answerParts(answer, req.headers['accept-encoding'], VISITOR_PAGE_CACHING);
      res.writeHead(200, [
        ...security,
        REQUEST_ID_HEADER,
        id,
        ...headers,
        'Content-Length',
        String(body.length),
      ]);
      res.end(body);
      recordAnswered(req, { id, method: 'POST', route: FEED_PATH, status: 200, started });
      logAnswered(logger, req, { id, status: 200, startedAt });
    });
  };
}
