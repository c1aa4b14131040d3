// A gateway worker handing back its kept-alive connections (drain.ts's rebalance, sent by the cluster primary when
// a worker forked again listens): each connection open then answers its next request and says it closes, so the
// client opens new ones, which the primary shares out among the workers; no request is cut.
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drainable } from '../src/http/drain.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('a gateway worker handing back its connections', () => {
  it('closes each kept-alive connection after its next answer, which the client then replaces', async () => {
    let connections = 0;
    const server = createServer((req, res) => {
      setTimeout(() => res.end(String((req.socket as { id?: number }).id)), 20);
    });
    server.on('connection', (socket) => {
      connections += 1;
      Object.assign(socket, { id: connections });
    });
    const http = drainable(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    closers.push(async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const { port } = server.address() as AddressInfo;
    const get = () =>
      new Promise<{ status: number; connection: string | undefined; on: number }>((resolve, reject) => {
        request({ port, host: '127.0.0.1', path: '/', agent }, (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, on: Number(body) }),
          );
        })
          .on('error', reject)
          .end();
      });
    const four = () => Promise.all(Array.from({ length: 4 }, get));

    const before = await four();
    expect(new Set(before.map((answer) => answer.on)).size).toBe(4);
    expect(before.every((answer) => answer.connection === 'keep-alive')).toBe(true);

    http.rebalance();
    const handedBack = await four();
    expect(handedBack.map((answer) => [answer.status, answer.connection])).toEqual(
      handedBack.map(() => [200, 'close']),
    );
    expect(new Set(handedBack.map((answer) => answer.on))).toEqual(
      new Set(before.map((answer) => answer.on)),
    );

    // The client's next requests come on new connections, kept alive again.
    const after = await four();
    expect(after.every((answer) => answer.on > 4 && answer.connection === 'keep-alive')).toBe(true);
  });
});
