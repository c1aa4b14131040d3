// OpenTelemetry tracing of one process, set up from the standard variables: OTEL_TRACES_EXPORTER (`none` by
// default, `otlp`, `console`, or a comma-separated list), OTEL_EXPORTER_OTLP_ENDPOINT (read by the OTLP exporter
// itself), OTEL_SERVICE_NAME (default: the process's name) and OTEL_RESOURCE_ATTRIBUTES. Spans follow the call
// through async work (AsyncLocalStorage) and cross processes as W3C trace context; Prisma Client's queries
// become spans through Prisma's own instrumentation.
import { hostname } from 'node:os';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  type SpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_INSTANCE_ID, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { PrismaInstrumentation } from '@prisma/instrumentation';
import { z } from 'zod';
import { envBoolean } from '../config.ts';

/** The name every span of the kit's own instrumentation is made by. */
export const TRACER_NAME = 'rotunda';

/** The gateway's request id (x-request-id) on every span of a request, in every process it crosses. */
export const REQUEST_ID_ATTRIBUTE = 'rotunda.request_id';

const EXPORTERS = ['none', 'otlp', 'console'] as const;
type Exporter = (typeof EXPORTERS)[number];

/** The standard variables that choose where spans go (OTEL_SDK_DISABLED=true turns every exporter off). */
export const tracingConfigSchema = z
  .object({
    OTEL_TRACES_EXPORTER: z
      .string()
      .optional()
      .transform((value, ctx) => {
        const names = (value ?? '')
          .split(',')
          .map((name) => name.trim().toLowerCase())
          .filter(Boolean);
        const unknown = names.filter((name) => !(EXPORTERS as readonly string[]).includes(name));
        if (unknown.length > 0) {
          ctx.addIssue({
            code: 'custom',
            message: `must be ${EXPORTERS.join(', ')} or a comma-separated list of them`,
          });
          return z.NEVER;
        }
        return [...new Set(names as Exporter[])];
      }),
    OTEL_SDK_DISABLED: envBoolean(false),
  })
  .transform(({ OTEL_TRACES_EXPORTER, OTEL_SDK_DISABLED }) => ({
    exporters: OTEL_SDK_DISABLED
      ? []
      : OTEL_TRACES_EXPORTER.filter((name): name is Exclude<Exporter, 'none'> => name !== 'none'),
  }));

export interface Tracing {
  /** Whether spans are recorded at all (an exporter or a test's processor is configured). */
  enabled: boolean;
  /** Sends the spans still buffered, then stops recording. */
  shutdown: () => Promise<void>;
}

function processorOf(exporter: Exclude<Exporter, 'none'>): SpanProcessor {
  // The OTLP exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (and its other standard variables) itself.
  if (exporter === 'otlp') return new BatchSpanProcessor({ exporter: new OTLPTraceExporter() });
  return new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter() });
}

/**
 * Starts tracing for the process named `serviceName` when an exporter is configured (`tracingConfigSchema`) or a
 * test hands its own processors; otherwise nothing is registered and every span asked for is the API's no-op.
 */
export function startTracing(options: {
  serviceName: string;
  exporters: z.infer<typeof tracingConfigSchema>['exporters'];
  spanProcessors?: SpanProcessor[];
}): Tracing {
  const spanProcessors = [...options.exporters.map(processorOf), ...(options.spanProcessors ?? [])];
  if (spanProcessors.length === 0) return { enabled: false, shutdown: async () => {} };

  const resource = defaultResource()
    .merge(
      resourceFromAttributes({
        [ATTR_SERVICE_NAME]: options.serviceName,
        [ATTR_SERVICE_INSTANCE_ID]: `${hostname()}:${process.pid}`,
      }),
    )
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the defaults above.
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({ resource, spanProcessors });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  // Enabled as it is made: Prisma Client finds the instrumentation on a global, no module hook needed.
  const prisma = new PrismaInstrumentation();

  return {
    enabled: true,
    shutdown: async () => {
      prisma.disable();
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
