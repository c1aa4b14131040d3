// What an `*_SERVICE_ADDR` value may be — one host:port, a comma list of replicas' IP addresses, or a dns:/// name —
// and the grpc-js target it becomes. Kept apart from the clients so configuration can check addresses without
// loading what a channel needs.
import { isIPv4, isIPv6 } from 'node:net';

/** What is wrong with an `*_SERVICE_ADDR` value, or undefined when it names a service. */
export function addressProblem(address: string): string | undefined {
  if (address.startsWith('dns:')) {
    return /^dns:\/\/\/[\w.-]+:\d{1,5}$/.test(address) &&
      validPort(address.slice(address.lastIndexOf(':') + 1))
      ? undefined
      : 'must be dns:///name:port';
  }
  const endpoints = address.split(',').map((entry) => entry.trim());
  const parsed = endpoints.map(endpointOf);
  if (parsed.some((endpoint) => endpoint === undefined))
    return 'must be host:port, a comma-separated list of address:port, or dns:///name:port';
  const kinds = new Set(parsed.map((endpoint) => endpoint?.kind));
  if (endpoints.length > 1 && kinds.has('name'))
    return 'a list must give IP addresses (127.0.0.1:50052,127.0.0.1:50062); for a name with several addresses use dns:///name:port';
  if (kinds.size > 1) return 'a list must give IPv4 addresses only or IPv6 addresses only';
  return undefined;
}

/** The grpc-js target of an `*_SERVICE_ADDR` value (checked at start-up with addressProblem). */
export function grpcTarget(address: string): string {
  const problem = addressProblem(address);
  if (problem) throw new Error(`gRPC address "${address}": ${problem}`);
  if (address.startsWith('dns:')) return address;
  const endpoints = address.split(',').map((entry) => entry.trim());
  const kind = endpointOf(endpoints[0] ?? '')?.kind;
  // A name goes to the DNS resolver, which balances over every address it answers; literal addresses are taken
  // as they are.
  return kind === 'name' ? `dns:///${endpoints[0]}` : `${kind}:${endpoints.join(',')}`;
}

function validPort(port: string): boolean {
  return /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535;
}

function endpointOf(entry: string): { kind: 'ipv4' | 'ipv6' | 'name' } | undefined {
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(entry);
  if (bracketed)
    return isIPv6(bracketed[1] ?? '') && validPort(bracketed[2] ?? '') ? { kind: 'ipv6' } : undefined;
  const plain = /^([\w.-]+):(\d+)$/.exec(entry);
  if (!plain || !validPort(plain[2] ?? '')) return undefined;
  return { kind: isIPv4(plain[1] ?? '') ? 'ipv4' : 'name' };
}
