// What every call to a service passes before any handler runs: the caller is the one a valid caller token
// names for this very service (plain caller entries from the wire are dropped; a token that does not verify, or
// was signed for another service, is refused), a suspended member calls none of the service's write methods
// (ADR 0041), and no text in the request holds a NUL character, which PostgreSQL refuses to store (one check for
// every service, so a NUL answers INVALID_ARGUMENT instead of failing deep in a query).
import { type Metadata, ServerInterceptingCall, type ServerInterceptor, status } from '@grpc/grpc-js';
import { suspendedMessage } from '@rotunda/rules';
import { CALLER_SERVICE_METADATA, runningSuspension, setCallerMetadata } from '../caller.ts';
import {
  audienceOf,
  CALLER_TOKEN_METADATA,
  type CallerVerifier,
  PLAIN_CALLER_ENTRIES,
} from './caller-token.ts';

export const GUARD_MESSAGES = {
  unverified: 'The caller could not be verified.',
  nul: 'Text must not contain NUL characters.',
} as const;

/** Does any text in the message hold a NUL character (which PostgreSQL refuses to store)? */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) return value.some((item) => holdsNul(item, depth + 1));
  return Object.values(value).some((item) => holdsNul(item, depth + 1));
}

/**
 * Every service's server: drops plain caller entries, turns a valid caller token back into the caller the
 * handlers read (`callerFromMetadata`, or `callerServiceFromMetadata` for a service), and refuses, before any
 * handler runs, a call whose token does not verify (UNAUTHENTICATED), a call of one of `writes` (full method
 * paths) by a member whose suspension runs (PERMISSION_DENIED, saying until when and why), and a call whose
 * request holds a NUL character (INVALID_ARGUMENT). Without a verifier no call has a caller.
 */
export function callGuard(
  verifier: CallerVerifier | undefined,
  writes: ReadonlySet<string> = new Set(),
): ServerInterceptor {
  return (method, call) =>
    new ServerInterceptingCall(call, {
      start(next) {
        next({
          onReceiveMetadata(metadata: Metadata, mdNext) {
            const [token] = metadata.get(CALLER_TOKEN_METADATA);
            for (const entry of [...PLAIN_CALLER_ENTRIES, CALLER_TOKEN_METADATA]) metadata.remove(entry);
            if (token !== undefined) {
              const verified =
                typeof token === 'string' ? verifier?.verify(token, audienceOf(method.path)) : undefined;
              if (!verified) {
                call.sendStatus({ code: status.UNAUTHENTICATED, details: GUARD_MESSAGES.unverified });
                return;
              }
              if (verified.service !== undefined) metadata.set(CALLER_SERVICE_METADATA, verified.service);
              else {
                const suspension = writes.has(method.path) ? runningSuspension(verified.member) : undefined;
                if (suspension) {
                  call.sendStatus({
                    code: status.PERMISSION_DENIED,
                    details: suspendedMessage(suspension.until, suspension.reason),
                  });
                  return;
                }
                setCallerMetadata(metadata, verified.member);
              }
            }
            mdNext(metadata);
          },
          onReceiveMessage(message, messageNext) {
            if (holdsNul(message)) {
              call.sendStatus({ code: status.INVALID_ARGUMENT, details: GUARD_MESSAGES.nul });
              return;
            }
            messageNext(message);
          },
        });
      },
    });
}
