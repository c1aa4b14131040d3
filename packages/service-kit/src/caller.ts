// Who is calling: the gateway verifies the access token and names the member in the call metadata; its channels
// send that name only as a signed caller token, which each service's server verifies and turns back into these
// entries (grpc/caller-token.ts, grpc/guard.ts). Services read it from here and enforce their own rules on it
// (ownership, roles, a running suspension). A service calling another is named apart (x-caller-service), never as
// a member.
import type { Metadata } from '@grpc/grpc-js';
import { permissionDenied, unauthenticated } from './errors.ts';

/** A member's suspension (ADR 0041): their writes are refused until `until`. */
export interface Suspension {
  until: Date;
  reason: string;
}

export interface Caller {
  userId: string;
  email: string;
  roles: string[];
  /** The suspension the gateway knew of when it signed the caller: every service's guard refuses its writes. */
  suspension?: Suspension;
}

export const CALLER_METADATA = {
  id: 'x-caller-id',
  email: 'x-caller-email',
  roles: 'x-caller-roles',
  /** Milliseconds since the epoch. */
  suspendedUntil: 'x-caller-suspended-until',
  /** URI-encoded: a metadata value holds printable ASCII only, a contributor's reason may hold anything. */
  suspensionReason: 'x-caller-suspension-reason',
} as const;

/** The service a verified service token names (grpc/guard.ts); absent on the gateway's calls. */
export const CALLER_SERVICE_METADATA = 'x-caller-service';

export const CONTRIBUTOR_ROLE = 'contributor';

/** The refusals every service and the gateway answer a visitor, or a member without the contributor role. */
export const ACCESS_MESSAGES = {
  loginRequired: 'Access Restricted. Please login.',
  contributorsOnly: 'Contributors only',
  servicesOnly: 'Only a verified Rotunda service may ask this.',
} as const;

export const isContributor = (caller: Caller) => caller.roles.includes(CONTRIBUTOR_ROLE);

/** The caller's suspension while it runs; undefined once it ended (or for a caller never suspended). */
export function runningSuspension(caller: Caller | undefined, now = Date.now()): Suspension | undefined {
  const suspension = caller?.suspension;
  return suspension && suspension.until.getTime() > now ? suspension : undefined;
}

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

/** The service calling, or UNAUTHENTICATED for any call not made by a verified service (a member's included). */
export function requireService(service: string | undefined): string {
  if (!service) throw unauthenticated(ACCESS_MESSAGES.servicesOnly);
  return service;
}

export function setCallerMetadata(metadata: Metadata, caller: Caller): void {
  metadata.set(CALLER_METADATA.id, caller.userId);
  metadata.set(CALLER_METADATA.email, caller.email);
  metadata.set(CALLER_METADATA.roles, caller.roles.join(','));
  if (caller.suspension) {
    metadata.set(CALLER_METADATA.suspendedUntil, String(caller.suspension.until.getTime()));
    metadata.set(CALLER_METADATA.suspensionReason, encodeURIComponent(caller.suspension.reason));
  }
}

function suspensionFromMetadata(metadata: Metadata): Suspension | undefined {
  const [until] = metadata.get(CALLER_METADATA.suspendedUntil);
  const [reason] = metadata.get(CALLER_METADATA.suspensionReason);
  const at = typeof until === 'string' ? Number(until) : Number.NaN;
  if (!Number.isFinite(at) || typeof reason !== 'string') return undefined;
  try {
    return { until: new Date(at), reason: decodeURIComponent(reason) };
  } catch {
    return undefined;
  }
}

export function callerFromMetadata(metadata: Metadata): Caller | undefined {
  const [userId] = metadata.get(CALLER_METADATA.id);
  if (typeof userId !== 'string' || !userId) return undefined;
  const [email] = metadata.get(CALLER_METADATA.email);
  const [roles] = metadata.get(CALLER_METADATA.roles);
  const suspension = suspensionFromMetadata(metadata);
  return {
    userId,
    email: typeof email === 'string' ? email : '',
    roles: typeof roles === 'string' && roles ? roles.split(',') : [],
    ...(suspension ? { suspension } : {}),
  };
}

export function callerServiceFromMetadata(metadata: Metadata): string | undefined {
  const [service] = metadata.get(CALLER_SERVICE_METADATA);
  return typeof service === 'string' && service ? service : undefined;
}
