// The gateway's graceful stop for HTTP: stop listening, let the requests in flight finish within a grace, and
// close each kept-alive connection as soon as it is idle. Node's server.close() alone waits for every kept-alive
// connection's idle timeout (65 s here), and a response sent while stopping would still invite the client to
// reuse a connection that is about to go. Also the cluster's rebalance: when a worker was forked again, the
// others hand back the connections they hold, each after its next answer, so the clients' new connections are
// shared out by the primary again.
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface Drainable {
  /** Resolves once every connection is closed, cutting those still busy after `graceMs`. */
  drain: (graceMs: number) => Promise<void>;
  /**
   * Every connection open now closes after its next answer, which says so (Connection: close), so its client
   * sends nothing more on it and opens a new one: no request is cut. A worker that outlived its twin holds every
   * kept-alive connection the clients made meanwhile, and keeps them, busy, while the new twin gets only what
   * they overflow; its p50 stayed doubled 14 s after the twin's return in the faults bench.
   */
  rebalance: () => void;
}

export function drainable(server: Server): Drainable {
  const inFlight = new Set<ServerResponse>();
  const open = new Set<Socket>();
  let handBack = new WeakSet<Socket>();
  let draining = false;
  // A response that tells the client the connection closes after it, so it sends nothing more on it.
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req, res: ServerResponse) => {
    if (draining || handBack.has(req.socket)) closeAfter(res);
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });

  return {
    rebalance() {
      handBack = new WeakSet(open);
      for (const res of inFlight) closeAfter(res);
    },
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
