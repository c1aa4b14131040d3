// Domain errors: what a rule refuses, in words a user may read, with a kind that each edge maps to its own
// protocol (gRPC status in the services, HTTP status in the gateway). Domain code throws only these.
export type DomainErrorKind =
  | 'invalid_argument'
  | 'not_found'
  | 'already_exists'
  | 'permission_denied'
  | 'unauthenticated'
  | 'failed_precondition'
  | 'resource_exhausted';

export class DomainError extends Error {
  override name = 'DomainError';
  readonly kind: DomainErrorKind;

  constructor(kind: DomainErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

export const invalidArgument = (message: string) => new DomainError('invalid_argument', message);
export const notFound = (message: string) => new DomainError('not_found', message);
export const permissionDenied = (message: string) => new DomainError('permission_denied', message);
export const unauthenticated = (message: string) => new DomainError('unauthenticated', message);
