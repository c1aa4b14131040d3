// A fault-injection seam for the keyed creates' tests: the SQL of idempotencyKeys as a process that dies right
// after its create's commit sees it, every statement run but the one that keeps the answer, which never lands.
import type { RawSql } from '../idempotency.ts';

export function diesBeforeAnswer(sql: RawSql): RawSql {
  return {
    $queryRawUnsafe: (query, ...values) => sql.$queryRawUnsafe(query, ...values),
    $executeRawUnsafe: (query, ...values) =>
      /\bSET answer\b/.test(query)
        ? Promise.reject(new Error('the process died before keeping the answer'))
        : sql.$executeRawUnsafe(query, ...values),
  };
}
