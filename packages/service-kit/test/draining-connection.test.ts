// A call still running when its server ends the connection (a graceful GOAWAY: the connection's age, or a replica
// shutting down) gets its answer, even when the client's keepalive ping falls due while the connection drains
// (ADR 0063). Real grpc-js on both sides over loopback; the age and the ping interval are shortened so that the
// ping comes during the call.
import {
  type Client,
  credentials,
  makeGenericClientConstructor,
  Server,
  ServerCredentials,
  type ServiceError,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { afterEach, expect, it } from 'vitest';
import { clientOptions } from '../src/grpc/clients.ts';
import { SERVER_CONNECTION_OPTIONS } from '../src/grpc/server.ts';

const bytes = (buffer: Buffer) => buffer;
/** One unary method that answers what it was sent, after `ANSWER_MS`, as a login waiting on Keycloak would. */
const SLOW_ECHO = {
  Echo: {
    path: '/rotunda.test.v1.Slow/Echo',
    requestStream: false,
    responseStream: false,
    requestSerialize: bytes,
    requestDeserialize: bytes,
    responseSerialize: bytes,
    responseDeserialize: bytes,
  },
};
const ANSWER_MS = 600;
/** The server's GOAWAY comes about 100 ms after the connection opens; the client's ping falls due at 250 ms. */
const CONNECTION_AGE_MS = 100;
const KEEPALIVE_MS = 250;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function slowServer(): Promise<number> {
  const server = new Server({
    ...SERVER_CONNECTION_OPTIONS,
    'grpc.max_connection_age_ms': CONNECTION_AGE_MS,
  });
  const implementation: UntypedServiceImplementation = {
    Echo: (call: { request: Buffer }, answer: (error: null, value: Buffer) => void) =>
      setTimeout(() => answer(null, call.request), ANSWER_MS),
  };
  server.addService(SLOW_ECHO, implementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  cleanups.push(() => server.forceShutdown());
  return port;
}

function echo(client: Client, text: string): Promise<string> {
  const slow = client as Client & {
    Echo: (
      request: Buffer,
      options: { deadline: number },
      done: (error: ServiceError | null, answer?: Buffer) => void,
    ) => void;
  };
  return new Promise((resolve, reject) =>
    slow.Echo(Buffer.from(text), { deadline: Date.now() + 5000 }, (error, answer) =>
      error ? reject(error) : resolve(String(answer)),
    ),
  );
}

it('a call in flight when the server drains its connection gets its answer, the keepalive ping due meanwhile', async () => {
  const port = await slowServer();
  const Slow = makeGenericClientConstructor(SLOW_ECHO, 'Slow');
  const client = new Slow(
    `ipv4:127.0.0.1:${port}`,
    credentials.createInsecure(),
    clientOptions('grpc.health.v1.Health', { 'grpc.keepalive_time_ms': KEEPALIVE_MS }),
  );
  cleanups.push(() => client.close());
  await new Promise<void>((resolve, reject) =>
    client.waitForReady(Date.now() + 5000, (error) => (error ? reject(error) : resolve())),
  );
  // Sent at once, answered after the GOAWAY (~100 ms) and the ping's due time (250 ms): it drains.
  await expect(echo(client, 'login')).resolves.toBe('login');
  // The connection ended; the channel reconnects and a new call is answered as usual.
  await expect(echo(client, 'again')).resolves.toBe('again');
});
