// Traces and metrics of gRPC calls, on both ends. The client interceptor starts a client span, puts its W3C trace
// context in the call's metadata and counts the call by the code it ended with; the server interceptor takes
// that context out, runs the handler inside a server span and counts each status it sends (the guard's refusals
// too). Calls made outside any trace (the gateway's polls, a service's start-up copies) and health checks are
// counted but not traced: they would bury the requests in traces of their own.
import { randomUUID } from 'node:crypto';
import {
  InterceptingCall,
  type Interceptor,
  type Metadata,
  ServerInterceptingCall,
  type ServerInterceptor,
  status,
} from '@grpc/grpc-js';
import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import {
  ATTR_RPC_METHOD,
  ATTR_RPC_STATUS_CODE,
  ATTR_RPC_SYSTEM_NAME,
  RPC_SYSTEM_NAME_VALUE_GRPC,
} from '@opentelemetry/semantic-conventions';
import { REQUEST_ID_HEADER } from '../request-context.ts';
import { grpcClientHandled, grpcClientHandling, grpcServerHandled, grpcServerHandling } from './metrics.ts';
import { REQUEST_ID_ATTRIBUTE, TRACER_NAME } from './tracing.ts';

const metadataSetter: TextMapSetter<Metadata> = {
  set: (metadata, key, value) => metadata.set(key, value),
};

const metadataGetter: TextMapGetter<Metadata> = {
  get: (metadata, key) => {
    const [value] = metadata.get(key);
    return value === undefined ? undefined : String(value);
  },
  keys: (metadata) => Object.keys(metadata.getMap()),
};

/** `/rotunda.profile.v1.ProfileService/SearchDirectory` → its service and method, as the metrics label them. */
function partsOf(path: string): { service: string; method: string; rpc: string } {
  const [service = 'unknown', method = 'unknown'] = path.replace(/^\//, '').split('/');
  return { service, method, rpc: `${service}/${method}` };
}

const traced = (service: string) => service !== 'grpc.health.v1.Health';

/** Random hex from Node's pooled UUIDs: a randomBytes call per gRPC call cost more than the call's own framing. */
const randomHex = () => randomUUID().replaceAll('-', '');

/** A context whose trace is not sampled: spans made under it, here or downstream, record nothing. */
const notSampled = () =>
  trace.setSpanContext(ROOT_CONTEXT, {
    traceId: randomHex(),
    spanId: randomHex().slice(0, 16),
    traceFlags: TraceFlags.NONE,
  });

const codeName = (code: status) => status[code] ?? String(code);

function attributesOf(rpc: string, metadata: Metadata) {
  const [requestId] = metadata.get(REQUEST_ID_HEADER);
  return {
    [ATTR_RPC_SYSTEM_NAME]: RPC_SYSTEM_NAME_VALUE_GRPC,
    [ATTR_RPC_METHOD]: rpc,
    ...(requestId === undefined ? {} : { [REQUEST_ID_ATTRIBUTE]: String(requestId) }),
  };
}

function endSpan(span: Span | undefined, code: status, details?: string): void {
  if (!span) return;
  span.setAttribute(ATTR_RPC_STATUS_CODE, codeName(code));
  if (code !== status.OK) span.setStatus({ code: SpanStatusCode.ERROR, message: details ?? codeName(code) });
  span.end();
}

/** Every gRPC client's: a client span per call, its context sent along, and the call counted and timed. */
export function clientTelemetryInterceptor(): Interceptor {
  return (options, nextCall) => {
    const { service, method, rpc } = partsOf(options.method_definition.path);
    return new InterceptingCall(nextCall(options), {
      start(metadata, _listener, next) {
        const started = performance.now();
        const parent = context.active();
        const span =
          traced(service) && trace.getSpan(parent)
            ? trace
                .getTracer(TRACER_NAME)
                .startSpan(rpc, { kind: SpanKind.CLIENT, attributes: attributesOf(rpc, metadata) }, parent)
            : undefined;
        // Untraced, the call still says so: its context marked not sampled keeps the server from starting a trace.
        propagation.inject(span ? trace.setSpan(parent, span) : notSampled(), metadata, metadataSetter);
        // Only the status is watched: grpc-js passes everything else on to the caller's own listener.
        next(metadata, {
          onReceiveStatus(received, nextStatus) {
            const labels = { grpc_service: service, grpc_method: method };
            grpcClientHandled.inc({ ...labels, grpc_code: codeName(received.code) });
            grpcClientHandling.observe(labels, (performance.now() - started) / 1000);
            endSpan(span, received.code, received.details);
            nextStatus(received);
          },
        });
      },
    });
  };
}

/**
 * Every service's server: the call's server span is a child of the caller's (from the metadata), and the
 * handler runs inside it, so the spans of its queries and onward calls join the same trace.
 */
export function serverTelemetryInterceptor(): ServerInterceptor {
  return (descriptor, call) => {
    const { service, method, rpc } = partsOf(descriptor.path);
    const started = performance.now();
    let span: Span | undefined;
    let active: Context = ROOT_CONTEXT;
    let ended = false;
    const finish = (code: status, details?: string) => {
      if (ended) return;
      ended = true;
      const labels = { grpc_service: service, grpc_method: method };
      grpcServerHandled.inc({ ...labels, grpc_code: codeName(code) });
      grpcServerHandling.observe(labels, (performance.now() - started) / 1000);
      endSpan(span, code, details);
    };
    return new ServerInterceptingCall(call, {
      start(next) {
        next({
          onReceiveMetadata(metadata, mdNext) {
            if (traced(service)) {
              const parent = propagation.extract(ROOT_CONTEXT, metadata, metadataGetter);
              span = trace
                .getTracer(TRACER_NAME)
                .startSpan(rpc, { kind: SpanKind.SERVER, attributes: attributesOf(rpc, metadata) }, parent);
              active = trace.setSpan(parent, span);
            }
            mdNext(metadata);
          },
          // grpc-js calls the handler when the request has been read whole: it starts inside the span.
          onReceiveHalfClose(halfCloseNext) {
            context.with(active, halfCloseNext);
          },
          onCancel() {
            finish(status.CANCELLED);
          },
        });
      },
      sendStatus(sent, statusNext) {
        finish(sent.code, sent.details);
        statusNext(sent);
      },
    });
  };
}
