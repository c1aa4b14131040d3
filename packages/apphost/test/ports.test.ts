// npm start names every port that is already taken, and the variable that moves it, before starting anything.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portsInUse } from '../src/ports.ts';

describe('portsInUse', () => {
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '0.0.0.0', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(() => new Promise((resolve) => busy.close(resolve)));

  it('names a taken port, what needs it and the variable to change', async () => {
    expect(await portsInUse([{ port: busyPort, what: 'the app', variable: 'PORT' }])).toEqual([
      `Port ${busyPort} (the app) is already in use. Stop what is using it, or set PORT to another port.`,
    ]);
  });

  it('says nothing about free ports', async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as { port: number }).port;
    await new Promise((resolve) => free.close(resolve));
    expect(await portsInUse([{ port, what: 'PostgreSQL', variable: 'POSTGRES_PORT' }])).toEqual([]);
  });

  it('lists every clash at once', async () => {
    const clashes = await portsInUse([
      { port: busyPort, what: 'the app', variable: 'PORT' },
      { port: busyPort, what: "the news service's gRPC" },
    ]);
    expect(clashes).toHaveLength(2);
    expect(clashes[1]).toBe(
      `Port ${busyPort} (the news service's gRPC) is already in use. Stop what is using it.`,
    );
  });
});
