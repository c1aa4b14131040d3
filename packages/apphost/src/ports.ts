// Checks every port the stack needs before starting anything, so a clash is named instead of half a start.
import { createServer } from 'node:net';

export interface PortNeed {
  port: number;
  what: string;
  variable?: string;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Answers one message per port already in use. */
export async function portsInUse(needs: readonly PortNeed[]): Promise<string[]> {
  const results = await Promise.all(needs.map(async (need) => ({ need, free: await isFree(need.port) })));
  return results
    .filter((result) => !result.free)
    .map(
      ({ need }) =>
        `Port ${need.port} (${need.what}) is already in use.` +
        (need.variable
          ? ` Stop what is using it, or set ${need.variable} to another port.`
          : ' Stop what is using it.'),
    );
}
