// The security headers of every answer (helmet): the content security policy the web apps need, and helmet's
// defaults otherwise. HSTS is left to the TLS ingress in production; one machine serves plain HTTP.
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

const headersMiddleware = helmet({
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
  strictTransportSecurity: false,
});

export const securityHeaders = () => headersMiddleware;

/**
 * The same headers as one flat [name, value, …] list, for answers written ahead of the middleware
 * (`res.writeHead(status, list)`): helmet run once against a response that only records what it is given.
 * They depend on nothing in the request.
 */
export function securityHeaderList(): string[] {
  const list: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      list.push(name, String(value));
      return recorder;
    },
    removeHeader() {},
  };
  headersMiddleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return list;
}
