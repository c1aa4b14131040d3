// The gateway's graceful stop for HTTP: stop listening, let the requests in flight finish within a grace, and
// close each kept-alive connection as soon as it is idle. Node's server.close() alone waits for every kept-alive
// connection's idle timeout (65 s here), and a response sent while stopping would still invite the client to
// reuse a connection that is about to go.
import type { Server, ServerResponse } from 'node:http';

export interface Drainable {
  /** Resolves once every connection is closed, cutting those still busy after `graceMs`. */
  drain: (graceMs: number) => Promise<void>;
}

export function drainable(server: Server): Drainable {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  // A response that tells the client the connection closes after it, so it sends nothing more on it.
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  server.on('request', (_req, res: ServerResponse) => {
    if (draining) closeAfter(res);
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });

  return {
    drain: (graceMs) =>
      new Promise<void>((resolve) => {
        draining = true;
        for (const res of inFlight) closeAfter(res);
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
