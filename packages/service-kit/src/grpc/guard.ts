// What every call to a service passes before any handler runs: the caller is the one a valid caller token
// names (plain caller entries from the wire are dropped; a token that does not verify is refused), and no text
// in the request holds a NUL character, which PostgreSQL refuses to store (one check for every service, so a
// NUL answers INVALID_ARGUMENT instead of failing deep in a query).
import { type Metadata, ServerInterceptingCall, type ServerInterceptor, status } from '@grpc/grpc-js';
import { CALLER_METADATA } from '../caller.ts';
import { CALLER_TOKEN_METADATA, type CallerVerifier, PLAIN_CALLER_ENTRIES } from './caller-token.ts';

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
 * handlers read (`callerFromMetadata`), and refuses a call whose token does not verify (UNAUTHENTICATED) or
 * whose request holds a NUL character (INVALID_ARGUMENT), before any handler runs. Without a verifier no
 * call has a caller.
 */
export function callGuard(verifier: CallerVerifier | undefined): ServerInterceptor {
  return (_method, call) =>
    new ServerInterceptingCall(call, {
      start(next) {
        next({
          onReceiveMetadata(metadata: Metadata, mdNext) {
            const [token] = metadata.get(CALLER_TOKEN_METADATA);
            for (const entry of [...PLAIN_CALLER_ENTRIES, CALLER_TOKEN_METADATA]) metadata.remove(entry);
            if (token !== undefined) {
              const caller = typeof token === 'string' ? verifier?.verify(token) : undefined;
              if (!caller) {
                call.sendStatus({ code: status.UNAUTHENTICATED, details: GUARD_MESSAGES.unverified });
                return;
              }
              metadata.set(CALLER_METADATA.id, caller.userId);
              metadata.set(CALLER_METADATA.email, caller.email);
              metadata.set(CALLER_METADATA.roles, caller.roles.join(','));
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
