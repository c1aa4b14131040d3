// The gateway's HTTP telemetry: a server span per request (the root of the request's trace, or a child of the
// caller's W3C trace context), made active for everything the request does, and the request counted and timed
// by method, route and status. The route is the Express pattern that matched (`/api/profiles/profile/:id`), never
// the raw URL, so ids and queries do not explode the series.
import type { IncomingMessage } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import { httpRequestDuration, httpRequests, REQUEST_ID_ATTRIBUTE, TRACER_NAME } from '@rotunda/service-kit';
import type { Express, RequestHandler } from 'express';

const UNMATCHED_ROUTE = '(unmatched)';

/** Methods outside HTTP's own are one label, so a client cannot make new series by inventing methods. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The request's server span (the root of its trace, or a child of the caller's W3C trace context). */
function startServerSpan(req: IncomingMessage, method: string, path: string, requestId: string) {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = trace.getTracer(TRACER_NAME).startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: method,
        [ATTR_URL_PATH]: path,
        [REQUEST_ID_ATTRIBUTE]: requestId,
      },
    },
    parent,
  );
  return { span, active: trace.setSpan(parent, span) };
}

/** Counts and times a request by method, route label and status, and ends its span named by the route. */
function endRequest(
  span: Span,
  answered: { method: string; route: string | undefined; label: string; status: number; started: number },
) {
  const { method, route, status } = answered;
  const labels = { method, route: answered.label, status: String(status) };
  httpRequests.inc(labels);
  httpRequestDuration.observe(labels, (performance.now() - answered.started) / 1000);
  span.updateName(route === undefined ? method : `${method} ${route}`);
  if (route !== undefined) span.setAttribute(ATTR_HTTP_ROUTE, route);
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * A request answered ahead of the pipeline (the visitors' feed pages, routes/visitor-feed.ts), at once: counted,
 * timed and traced as the pipeline would have, under its route's pattern.
 */
export function recordAnswered(
  req: IncomingMessage,
  answered: { id: string; method: string; route: string; status: number; started: number },
) {
  const { span } = startServerSpan(req, answered.method, answered.route, answered.id);
  endRequest(span, { ...answered, label: answered.route });
}

/** What the route accessors learn of one request as Express walks its routers. */
interface RouteState {
  /** The matched route's pattern, mount path included. */
  route: string | undefined;
  /** The deepest router the request entered. */
  router: string;
  matched: unknown;
  baseUrl: string | undefined;
}

const ROUTE_STATE = Symbol('rotunda.route');
type TrackedRequest = { [ROUTE_STATE]?: RouteState };

const stateOf = (req: TrackedRequest): RouteState =>
  (req[ROUTE_STATE] ??= { route: undefined, router: '', matched: undefined, baseUrl: undefined });

/**
 * Express sets `req.route` when a route matches, and `req.baseUrl` as the request enters each router; both are
 * read as they are set, because by the time an error reaches the app's handler the routers have put `baseUrl`
 * back. The accessors are defined once on the app's request prototype: defined on each request instead, every
 * property read of a request went through a slower object shape (ADR 0033 has the figures).
 */
function trackRoutes(prototype: object) {
  Object.defineProperties(prototype, {
    route: {
      configurable: true,
      enumerable: true,
      get(this: TrackedRequest) {
        return stateOf(this).matched;
      },
      set(this: TrackedRequest, value: { path?: unknown } | undefined) {
        const state = stateOf(this);
        state.matched = value;
        // A router's own root ('/' under /api/news) is the path it is mounted at.
        if (typeof value?.path === 'string')
          state.route =
            value.path === '/' && state.baseUrl ? state.baseUrl : `${state.baseUrl ?? ''}${value.path}`;
      },
    },
    baseUrl: {
      configurable: true,
      enumerable: true,
      get(this: TrackedRequest) {
        return stateOf(this).baseUrl;
      },
      // The router restores what it found when it leaves a mount, which for the app itself is undefined.
      set(this: TrackedRequest, value: string | undefined) {
        const state = stateOf(this);
        state.baseUrl = value;
        if (value !== undefined && value.length > state.router.length) state.router = value;
      },
    },
  });
}

/**
 * For `app`'s requests; must come after the request id is given (pino-http), before the routers. A request answered
 * before any route matched (a router's member check, the API's 404) is labelled with the deepest router it entered
 * (`/api/*`).
 */
export function httpTelemetry(app: Express): RequestHandler {
  trackRoutes(app.request);
  return (req, res, next) => {
    const started = performance.now();
    const method = KNOWN_METHODS.has(req.method) ? req.method : '_OTHER';
    const state = stateOf(req as TrackedRequest);
    const routeLabel = () => state.route ?? (state.router ? `${state.router}/*` : UNMATCHED_ROUTE);

    const { span, active } = startServerSpan(req, method, req.path, String(req.id));

    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      // A request cut off before its answer was written is counted as the 499 of the proxies' logs.
      const status = res.writableFinished ? res.statusCode : 499;
      endRequest(span, { method, route: state.route, label: routeLabel(), status, started });
    };
    res.once('finish', finish);
    res.once('close', finish);
    // The body parsers resume in the request stream's callbacks: bound, they keep the span active too.
    context.bind(active, req);
    context.bind(active, res);
    context.with(active, next);
  };
}
