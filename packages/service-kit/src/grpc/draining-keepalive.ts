// A connection a server is draining keeps its calls until they end (ADR 0063). When a replica ends a connection
// (its age, ADR 0025, or its shutdown) it sends a graceful GOAWAY and lets the calls in flight finish. grpc-js
// 1.14.7 keeps the connection's keepalive timer running meanwhile; Node refuses a ping on a closing HTTP/2
// session, and grpc-js takes the refusal for a dead peer: it ends every call still draining with UNAVAILABLE
// "Connection dropped" (grpc/grpc-node#3068, open). A write is never sent twice, so a member's login sent a moment
// before the GOAWAY failed with "The auth service is unavailable". Here a closing connection sends no keepalive
// ping: its calls end with their answer, their deadline, or the server's grace period. Remove this once grpc-js
// stops pinging a closing session.
import { Http2SubchannelConnector } from '@grpc/grpc-js/build/src/transport.js';

/** The part of grpc-js's (unexported) Http2Transport that the fix relies on. */
interface PingingTransport {
  session: { closed: boolean };
  canSendPing: () => boolean;
}

function pingingTransport(transport: object): PingingTransport | undefined {
  const candidate = transport as Partial<PingingTransport>;
  const pinging =
    typeof candidate.canSendPing === 'function' && typeof candidate.session?.closed === 'boolean';
  return pinging ? (candidate as PingingTransport) : undefined;
}

let installed = false;

/** Makes every connection grpc-js opens from now on skip keepalive pings once it is closing. Idempotent. */
export function keepDrainingCallsAlive(): void {
  if (installed) return;
  installed = true;
  const connect = Http2SubchannelConnector.prototype.connect;
  Http2SubchannelConnector.prototype.connect = async function (...args) {
    const transport = await connect.apply(this, args);
    const pinging = pingingTransport(transport);
    // Loud rather than silently unfixed, should a grpc-js upgrade change its transport.
    if (!pinging) throw new Error('grpc-js transport changed: revisit draining-keepalive.ts (ADR 0063)');
    const canSendPing = pinging.canSendPing;
    pinging.canSendPing = () => !pinging.session.closed && canSendPing.call(pinging);
    return transport;
  };
}
