// Structured JSON logs (pino); each line carries the service name and, inside a call, its request id. Secrets
// that travel in URLs are blanked in every line before it is written (see redactSecrets).
import { type DestinationStream, type Logger, pino } from 'pino';
import { currentRequestId } from './request-context.ts';

export type { Logger };

/** What a blanked secret reads as in the logs. */
const REDACTED = '[redacted]';

/** Query keys whose values are credentials: one-time codes, keys, tokens, signatures, passwords, OAuth state. */
const SECRET_KEY = /token|secret|passw|signature|credential|apikey|(?:^|[_.-])(?:code|key|sig|state)$/i;

/**
 * One pass over a serialized line: the one-time token of a reset or confirmation link (in the page and API
 * paths alike), a query value under a secret-looking key, and anything shaped like a JWT. Values stop at what
 * ends them in a URL or in the line's JSON.
 */
const SECRETS =
  /(\/(?:reset-password|confirm-email)\/)[^/?#\s"\\]+|([?&])([^=&#\s"\\]+)=([^&#\s"\\]*)|\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]+/g;

function redactSecrets(line: string): string {
  return line.replace(SECRETS, (match, linkPath?: string, separator?: string, key?: string) => {
    if (linkPath) return `${linkPath}${REDACTED}`;
    if (separator && key) return SECRET_KEY.test(key) ? `${separator}${key}=${REDACTED}` : match;
    return REDACTED;
  });
}

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
      // Every line of this logger and its children (pino-http's request lines too) passes here.
      hooks: { streamWrite: redactSecrets },
    },
    destination ?? pino.destination(1),
  );
}
