// The service kit: what every Rotunda service and the gateway share (eShop's "service defaults").
export {
  ACCESS_MESSAGES,
  CALLER_METADATA,
  CALLER_SERVICE_METADATA,
  type Caller,
  CONTRIBUTOR_ROLE,
  callerFromMetadata,
  callerServiceFromMetadata,
  isContributor,
  requireContributor,
  requireMember,
  requireService,
  runningSuspension,
  type Suspension,
  setCallerMetadata,
} from './caller.ts';
export {
  ConfigError,
  embeddedDatabaseUrl,
  envAddress,
  envBoolean,
  envCallerPrivateKey,
  envCallerPublicKeys,
  envList,
  envOptionalPort,
  envPort,
  envPositiveInt,
  envPostgresUrl,
  envServiceCallerKeys,
  envServicePrivateKey,
  loadConfig,
  loadConfigOrExit,
  logLevel,
  type ServiceConfig,
  serverConfigSchema,
  serviceConfigSchema,
  serviceDefaults,
} from './config.ts';
export {
  DEPENDENCY_MESSAGES,
  type Dependency,
  dependencyHealthName,
  isDatabaseUnavailable,
  UNAVAILABLE_DEPENDENCY_TRAILER,
  unavailableDependencyOf,
} from './dependencies.ts';
export {
  DomainError,
  type DomainErrorKind,
  invalidArgument,
  notFound,
  permissionDenied,
  unauthenticated,
} from './errors.ts';
export { grpcTarget } from './grpc/addresses.ts';
export {
  audienceOf,
  CALLER_TOKEN_METADATA,
  type CallerKeys,
  type CallerSigner,
  type CallerVerifier,
  type CallerVerifierOptions,
  callerPrivateKeyOf,
  callerPublicKeyOf,
  callerSigningInterceptor,
  callersOf,
  createCallerSigner,
  createCallerVerifier,
  createServiceSigner,
  generateCallerKeys,
  SERVICE_CALLS,
  SERVICE_ROLE,
  type ServiceSigner,
  serviceCallerInterceptor,
  useServiceIdentity,
  type VerifiedCaller,
} from './grpc/caller-token.ts';
export {
  clientOptions,
  isIdempotentRead,
  READ_AGAIN_AFTER_MS,
  sendUnary,
  serviceClient,
  type UnaryMethod,
  unaryCall,
} from './grpc/clients.ts';
export { GUARD_MESSAGES } from './grpc/guard.ts';
export { type ProbeStatus, probeGrpcHealth } from './grpc/health-probe.ts';
export {
  drainConfigSchema,
  type GrpcService,
  type RunningGrpcServer,
  type StartGrpcServerOptions,
  shutdownOnSignals,
  startGrpcServer,
} from './grpc/server.ts';
export { grpcStatusOf } from './grpc/status.ts';
export {
  type CallContext,
  type StreamHandler,
  serverStream,
  type UnaryHandler,
  unary,
} from './grpc/unary.ts';
export {
  apiFieldName,
  type Curation,
  createHistoryReader,
  type FieldChange,
  fieldChanges,
  HISTORY_PAGE,
  type HistoryEntry,
  historyEntryMessage,
  historyEntryOf,
  historyRecordOf,
} from './history.ts';
export {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_LEASE_MS,
  IDEMPOTENCY_KEY_RETENTION_HOURS,
  IDEMPOTENCY_MESSAGES,
  type IdempotencyKeys,
  idempotencyKeyOf,
  idempotencyKeyOwner,
  idempotencyKeys,
  type JsonCodec,
  markCreated,
  parseIdempotencyKey,
  type RawSql,
  setIdempotencyKey,
} from './idempotency.ts';
export { createLogger, type Logger } from './logger.ts';
export {
  createSmtpMailer,
  type SmtpMailer,
  type SmtpMailerOptions,
  type SmtpMessage,
} from './mail/smtp-mailer.ts';
export { NODE_FLAGS } from './node-flags.ts';
export { stopWithParent } from './parent.ts';
export { listMigrations, migrate } from './postgres/migrate.ts';
export { connectReadDriver, DATABASE_CONNECTION, prismaAdapter, type ReadDriver } from './postgres/prisma.ts';
export { createPostgresProbe, type PostgresProbe } from './postgres/probe.ts';
export {
  type DatabaseService,
  databaseUrlAs,
  ensureEmbeddedServiceRoles,
  ensureServiceRoles,
  type RoleLogin,
  SERVICE_SCHEMAS,
  type ServiceRolesSpec,
  serviceRoleNames,
} from './postgres/roles.ts';
export {
  currentRequestId,
  type RawSqlExecutor,
  REQUEST_ID_HEADER,
  runWithRequestContext,
} from './request-context.ts';
export {
  type IndexWrites,
  NO_SEARCH_OUTBOX,
  OUTBOX_TABLE,
  type SearchOutbox,
  searchOutbox,
  type TransactionSql,
} from './search-outbox.ts';
export { runService, type ServiceWiring } from './service.ts';
export {
  clientTelemetryInterceptor,
  serverTelemetryInterceptor,
} from './telemetry/grpc.ts';
export {
  eventsHandled,
  eventsLag,
  httpRequestDuration,
  httpRequests,
  type MetricsListener,
  metricsRegistry,
  observePool,
  serveMetrics,
} from './telemetry/metrics.ts';
export { tracePgPool, traceStatements } from './telemetry/postgres.ts';
export {
  REQUEST_ID_ATTRIBUTE,
  startTracing,
  TRACER_NAME,
  type Tracing,
  tracingConfigSchema,
} from './telemetry/tracing.ts';
