// Structured JSON logs (pino); each line carries the service name and, inside a call, its request id.
import { type DestinationStream, type Logger, pino } from 'pino';
import { currentRequestId } from './request-context.ts';

export type { Logger };

export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin() {
        const requestId = currentRequestId();
        return requestId ? { request_id: requestId } : {};
      },
    },
    destination ?? pino.destination(1),
  );
}
