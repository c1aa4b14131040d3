// Who is calling: the gateway verifies the access token, then passes the member to the services in the call
// metadata. Services read it from here and enforce their own rules on it (ownership, roles).
import type { Metadata } from '@grpc/grpc-js';

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
