// Maps domain errors to gRPC status codes, and back again for the callers' side.
import { status } from '@grpc/grpc-js';
import type { DomainErrorKind } from '../errors.ts';

export const grpcStatusOf: Record<DomainErrorKind, status> = {
  invalid_argument: status.INVALID_ARGUMENT,
  not_found: status.NOT_FOUND,
  already_exists: status.ALREADY_EXISTS,
  permission_denied: status.PERMISSION_DENIED,
  unauthenticated: status.UNAUTHENTICATED,
  failed_precondition: status.FAILED_PRECONDITION,
  resource_exhausted: status.RESOURCE_EXHAUSTED,
};
