// The gateway's HTTP telemetry: a server span per request (the root of the request's trace, or a child of the
// caller's W3C trace context), made active for everything the request does, and the request counted and timed
// by method, route and status. The route is the Express pattern that matched (`/api/profiles/profile/:id`), never
// the raw URL, so ids and queries do not explode the series.
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import { httpRequestDuration, httpRequests, REQUEST_ID_ATTRIBUTE, TRACER_NAME } from '@rotunda/service-kit';
import type { RequestHandler } from 'express';

const UNMATCHED_ROUTE = '(unmatched)';

/** Methods outside HTTP's own are one label, so a client cannot make new series by inventing methods. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Must come after the request id is given (pino-http), before the routers. Express sets `req.route` when a route
 * matches, and `req.baseUrl` as the request enters each router; both are read as they are set, because by the time
 * an error reaches the app's handler the routers have put `baseUrl` back. A request answered before any route
 * matched (a router's member check, the API's 404) is labelled with the deepest router it entered (`/api/*`).
 */
export function httpTelemetry(): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const method = KNOWN_METHODS.has(req.method) ? req.method : '_OTHER';
    let route: string | undefined;
    let router = '';
    let matched: unknown;
    let baseUrl: string | undefined = req.baseUrl;
    Object.defineProperties(req, {
      route: {
        configurable: true,
        enumerable: true,
        get: () => matched,
        set(value: { path?: unknown } | undefined) {
          matched = value;
          // A router's own root ('/' under /api/news) is the path it is mounted at.
          if (typeof value?.path === 'string')
            route = value.path === '/' && baseUrl ? baseUrl : `${baseUrl ?? ''}${value.path}`;
        },
      },
      baseUrl: {
        configurable: true,
        enumerable: true,
        get: () => baseUrl,
        // The router restores what it found when it leaves a mount, which for the app itself is undefined.
        set(value: string | undefined) {
          baseUrl = value;
          if (value !== undefined && value.length > router.length) router = value;
        },
      },
    });
    const routeLabel = () => route ?? (router ? `${router}/*` : UNMATCHED_ROUTE);

    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = trace.getTracer(TRACER_NAME).startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: method,
          [ATTR_URL_PATH]: req.path,
          [REQUEST_ID_ATTRIBUTE]: String(req.id),
        },
      },
      parent,
    );
    const active = trace.setSpan(parent, span);

    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      // A request cut off before its answer was written is counted as the 499 of the proxies' logs.
      const status = res.writableFinished ? res.statusCode : 499;
      const label = routeLabel();
      const labels = { method, route: label, status: String(status) };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, (performance.now() - started) / 1000);
      span.updateName(route === undefined ? method : `${method} ${route}`);
      if (route !== undefined) span.setAttribute(ATTR_HTTP_ROUTE, route);
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.once('finish', finish);
    res.once('close', finish);
    // The body parsers resume in the request stream's callbacks: bound, they keep the span active too.
    context.bind(active, req);
    context.bind(active, res);
    context.with(active, next);
  };
}
