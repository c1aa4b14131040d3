// Who is calling: the gateway verifies the access token and names the member in the call metadata; its channels
// send that name only as a signed caller token, which each service's server verifies and turns back into these
// entries (grpc/caller-token.ts, grpc/guard.ts). Services read it from here and enforce their own rules on it
// (ownership, roles).
import type { Metadata } from '@grpc/grpc-js';
import { permissionDenied, unauthenticated } from './errors.ts';

export interface Caller {
  userId: string;
  email: string;
  roles: string[];
}

export const CALLER_METADATA = {
  id: 'x-caller-id',
  email: 'x-caller-email',
  roles: 'x-caller-roles',
} as const;

export const CONTRIBUTOR_ROLE = 'contributor';

/** The refusals every service and the gateway answer a visitor, or a member without the contributor role. */
export const ACCESS_MESSAGES = {
  loginRequired: 'Access Restricted. Please login.',
  contributorsOnly: 'Contributors only',
} as const;

export const isContributor = (caller: Caller) => caller.roles.includes(CONTRIBUTOR_ROLE);

/** The member calling, or UNAUTHENTICATED for a visitor. */
export function requireMember(caller: Caller | undefined): Caller {
  if (!caller) throw unauthenticated(ACCESS_MESSAGES.loginRequired);
  return caller;
}

/** The contributor calling, or UNAUTHENTICATED for a visitor and PERMISSION_DENIED for any other member. */
export function requireContributor(caller: Caller | undefined): Caller {
  const member = requireMember(caller);
  if (!isContributor(member)) throw permissionDenied(ACCESS_MESSAGES.contributorsOnly);
  return member;
}

export function setCallerMetadata(metadata: Metadata, caller: Caller): void {
  metadata.set(CALLER_METADATA.id, caller.userId);
  metadata.set(CALLER_METADATA.email, caller.email);
  metadata.set(CALLER_METADATA.roles, caller.roles.join(','));
}

export function callerFromMetadata(metadata: Metadata): Caller | undefined {
  const [userId] = metadata.get(CALLER_METADATA.id);
  if (typeof userId !== 'string' || !userId) return undefined;
  const [email] = metadata.get(CALLER_METADATA.email);
  const [roles] = metadata.get(CALLER_METADATA.roles);
  return {
    userId,
    email: typeof email === 'string' ? email : '',
    roles: typeof roles === 'string' && roles ? roles.split(',') : [],
  };
}
