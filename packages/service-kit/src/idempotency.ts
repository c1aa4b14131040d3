// Idempotency keys for the create calls (ADR 0046): a client that lost the answer to a create sends it again with
// the same `Idempotency-Key` and gets the first answer back, so nothing is created twice. The gateway checks the
// header and passes the key on as gRPC metadata; the service that owns the rows keeps each caller's key, a
// fingerprint of the request and the answer in its own schema's `idempotency_keys` table for a day. The create's
// own transaction marks the key with the row it made (`made`), so a process that dies between that commit and
// keeping the answer leaves a key that answers the row made, never one a repeat creates again under.
import { createHash } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_MESSAGES, parseIdempotencyKey } from '@rotunda/rules';
import { DomainError, invalidArgument } from './errors.ts';
import type { CallContext, UnaryHandler } from './grpc/unary.ts';
import { currentRequestContext, type RawSqlExecutor, runWithRequestContext } from './request-context.ts';

export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_MESSAGES, parseIdempotencyKey };

/** How long a key answers its first result; after that the same key starts a new create. */
export const IDEMPOTENCY_KEY_RETENTION_HOURS = 24;

/**
 * How long a key stays with a call that stopped renewing it. A running call renews it four times a lease; one whose
 * process died (a replica or its caller's gateway worker killed) stops, and a repeat may take the key over once a
 * lease has passed: about twice the gateway's gRPC deadline, not the key's whole day.
 */
export const IDEMPOTENCY_KEY_LEASE_MS = 6_000;

export function setIdempotencyKey(metadata: Metadata, key: string): void {
  metadata.set(IDEMPOTENCY_KEY_HEADER, key);
}

/** The call's key, if it has one; one that is malformed is refused (the gateway lets none through). */
export function idempotencyKeyOf(metadata: Metadata): string | undefined {
  const [value] = metadata.get(IDEMPOTENCY_KEY_HEADER);
  if (value === undefined) return undefined;
  const key = typeof value === 'string' ? parseIdempotencyKey(value) : undefined;
  if (key === undefined) throw invalidArgument(IDEMPOTENCY_MESSAGES.malformed);
  return key;
}

/** Raw SQL as a Prisma client runs it. */
export interface RawSql {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
}

/** A generated message type's proto3 JSON mapping (ts-proto's toJSON and fromJSON). */
export interface JsonCodec<Message> {
  toJSON(message: Message): unknown;
  fromJSON(object: unknown): Message;
}

/** The same request gives the same fingerprint: its proto3 JSON, fields in the message's order. */
function fingerprintOf<Request>(codec: JsonCodec<Request>, request: Request): string {
  return createHash('sha256')
    .update(JSON.stringify(codec.toJSON(request)))
    .digest('base64url');
}

/** The owner of a member's keys, whose rows go with their account (ADR 0042). */
export const idempotencyKeyOwner = (userId: string) => `member:${userId}`;

/** Who a key belongs to: the member calling, else the service. */
function ownerOf(context: CallContext): string {
  return context.caller ? idempotencyKeyOwner(context.caller.userId) : `service:${context.service ?? ''}`;
}

/**
 * Called inside the transaction that makes a keyed create's row, with that row's id: the key then says the row
 * was made in the same commit. Outside a keyed create (no key sent, a tool, a seed) it does nothing.
 */
export async function markCreated(tx: RawSqlExecutor, made: string | number): Promise<void> {
  await currentRequestContext()?.keyedCreate?.(tx, String(made));
}

export interface IdempotencyKeys {
  /**
   * `handler` made at most once per caller, method and key: a repeat of the same request answers the first
   * answer; the key used with another request, or while the first is still running, is refused. `handler` calls
   * markCreated in the transaction that makes its row; a repeat of a create whose answer was never kept (its
   * process died after the commit, or it failed after it) is answered `answerMade(made id)`.
   */
  create<Request, Response>(
    method: string,
    codecs: { request: JsonCodec<Request>; response: JsonCodec<Response> },
    handler: UnaryHandler<Request, Response>,
    answerMade: (made: string, context: CallContext) => Promise<Response>,
  ): UnaryHandler<Request, Response>;
}

/**
 * The keys kept in `schema`'s idempotency_keys table (each service's migration creates it). `created_at` is when
 * the key was taken or its lease last renewed; `leaseMs` is shortened by tests only.
 */
export function idempotencyKeys(
  sql: RawSql,
  schema: string,
  options: { leaseMs?: number } = {},
): IdempotencyKeys {
  const leaseMs = options.leaseMs ?? IDEMPOTENCY_KEY_LEASE_MS;
  const table = `"${schema}"."idempotency_keys"`;
  const where = 'owner = $1 AND method = $2 AND key = $3';

  /**
   * Takes the key for this call: true when no one had it (expired keys are let go first), or when the call that
   * had it stopped renewing its lease having made nothing. One statement takes it over, so two repeats never both
   * do; a create committing its mark meanwhile holds the row until its commit, and the take-over then finds it made.
   */
  const reserve = async (id: string[], fingerprint: string) => {
    await sql.$executeRawUnsafe(
      `DELETE FROM ${table} WHERE created_at < now() - make_interval(hours => $1)`,
      IDEMPOTENCY_KEY_RETENTION_HOURS,
    );
    const taken = await sql.$executeRawUnsafe(
      `INSERT INTO ${table} (owner, method, key, fingerprint) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      ...id,
      fingerprint,
    );
    if (taken === 1) return true;
    const takenOver = await sql.$executeRawUnsafe(
      `UPDATE ${table} SET created_at = now() WHERE ${where} AND fingerprint = $4 AND answer IS NULL
         AND made IS NULL AND created_at < now() - $5::int * interval '1 millisecond'`,
      ...id,
      fingerprint,
      leaseMs,
    );
    return takenOver === 1;
  };

  /** Renews the key's lease while its call runs; a renewal that fails is tried again at the next tick. */
  const holdLease = (id: string[]) => {
    const renewal = setInterval(() => {
      sql
        .$executeRawUnsafe(`UPDATE ${table} SET created_at = now() WHERE ${where} AND answer IS NULL`, ...id)
        .then(undefined, () => undefined);
    }, leaseMs / 4);
    renewal.unref();
    return () => clearInterval(renewal);
  };

  return {
    create(method, codecs, handler, answerMade) {
      return async (request, context) => {
        const key = idempotencyKeyOf(context.metadata);
        if (key === undefined) return handler(request, context);
        const id = [ownerOf(context), method, key];
        const fingerprint = fingerprintOf(codecs.request, request);
        // Twice at most: a first call that failed lets its key go between our INSERT and SELECT.
        for (let attempt = 0; attempt < 2; attempt++) {
          if (await reserve(id, fingerprint)) {
            let answer: Awaited<ReturnType<typeof handler>>;
            const releaseLease = holdLease(id);
            const scope = {
              ...(currentRequestContext() ?? { requestId: context.requestId }),
              keyedCreate: async (tx: RawSqlExecutor, made: string) => {
                await tx.$executeRawUnsafe(`UPDATE ${table} SET made = $4 WHERE ${where}`, ...id, made);
              },
            };
            try {
              answer = await runWithRequestContext(scope, () => handler(request, context));
            } catch (error) {
              // Nothing was made (the create's transaction failed or it was refused): the key may be used again.
              // Made and failed after its commit (the database lost meanwhile): a repeat answers what was made.
              await sql.$executeRawUnsafe(
                `DELETE FROM ${table} WHERE ${where} AND answer IS NULL AND made IS NULL`,
                ...id,
              );
              throw error;
            } finally {
              releaseLease();
            }
            await sql.$executeRawUnsafe(
              `UPDATE ${table} SET answer = $4::jsonb WHERE ${where}`,
              ...id,
              JSON.stringify(codecs.response.toJSON(answer)),
            );
            return answer;
          }
          const [kept] = await sql.$queryRawUnsafe<
            { fingerprint: string; answer: string | null; made: string | null }[]
          >(`SELECT fingerprint, answer::text AS answer, made FROM ${table} WHERE ${where}`, ...id);
          if (!kept) continue;
          if (kept.fingerprint !== fingerprint)
            throw new DomainError('failed_precondition', IDEMPOTENCY_MESSAGES.reused);
          if (kept.answer === null && kept.made !== null) {
            // Committed, its answer never kept: answered from the row made, and kept for the next repeat.
            const answer = await answerMade(kept.made, context);
            await sql.$executeRawUnsafe(
              `UPDATE ${table} SET answer = $4::jsonb WHERE ${where} AND answer IS NULL`,
              ...id,
              JSON.stringify(codecs.response.toJSON(answer)),
            );
            return answer;
          }
          // Still running (its lease renewed), or died less than a lease ago: answering nothing keeps it at most once.
          if (kept.answer === null)
            throw new DomainError('failed_precondition', IDEMPOTENCY_MESSAGES.inProgress);
          return codecs.response.fromJSON(JSON.parse(kept.answer));
        }
        throw new DomainError('failed_precondition', IDEMPOTENCY_MESSAGES.inProgress);
      };
    },
  };
}
