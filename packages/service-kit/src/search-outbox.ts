// The search outbox row of a write, written in the write's own transaction (ADR 0055, 0057): the owner's row and
// the note that the search engine must learn of it commit together or not at all, so a process killed between its
// commit and its index write leaves the note for @rotunda/search's outbox drain (at the next start of any replica,
// or its sweep) instead of losing the index write. A call that then writes the index itself deletes its own rows,
// so the drain meets only the writes a death or the engine's absence left.
import { currentRequestContext, type RawSqlExecutor, type RecordedIndexWrite } from './request-context.ts';

/** The table each owning service's migration makes in its own schema; @rotunda/search's drain reads it. */
export const OUTBOX_TABLE = 'search_outbox';

/** A transaction client that answers rows (a Prisma transaction client is one). */
export interface TransactionSql extends RawSqlExecutor {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

/** What an index writes: the part of a search index the outbox rows are cleared after. */
export interface IndexWrites {
  upsert(documents: { id: string }[]): Promise<void>;
  remove(ids: string[]): Promise<void>;
}

export interface SearchOutbox {
  /** Inside the write's transaction of a call: these documents of the index change with it. */
  record(tx: TransactionSql, documentIds: readonly (string | number)[]): Promise<void>;
  /**
   * `index` whose writes, once done (sent, or kept by the drain's own outbox), delete the rows this call recorded
   * for those documents.
   */
  clearing<Index extends IndexWrites>(sql: RawSqlExecutor, index: Index): Index;
}

/** No outbox: the Postgres index lives in the owner's database and has none (ADR 0055). */
export const NO_SEARCH_OUTBOX: SearchOutbox = {
  record: async () => {},
  clearing: (_sql, index) => index,
};

export function searchOutbox(schema: string, index: string): SearchOutbox {
  const table = `"${schema}"."${OUTBOX_TABLE}"`;

  /** Deletes the rows this call recorded for `documentIds`, which its index write has just covered. */
  async function clear(sql: RawSqlExecutor, documentIds: readonly string[]): Promise<void> {
    const context = currentRequestContext();
    if (!context?.indexWrites?.length) return;
    const covered = new Set(documentIds);
    const done: RecordedIndexWrite[] = [];
    context.indexWrites = context.indexWrites.filter((row) => {
      const mine = row.table === table && row.index === index && covered.has(row.documentId);
      if (mine) done.push(row);
      return !mine;
    });
    if (done.length === 0) return;
    // A delete that fails (the database lost meanwhile) leaves the rows to the drain: one more index write.
    await sql
      .$executeRawUnsafe(
        `DELETE FROM ${table} WHERE seq = ANY($1::bigint[])`,
        done.map((row) => row.seq),
      )
      .then(undefined, () => undefined);
  }

  return {
    async record(tx, documentIds) {
      // Outside a call (a seed at start, a listener, an event consumer) nothing is noted: a seed's rows would be
      // drained at start before the index exists, racing its creation on the engine.
      const context = currentRequestContext();
      if (documentIds.length === 0 || !context) return;
      const rows = await tx.$queryRawUnsafe<{ seq: string; document_id: string }[]>(
        `INSERT INTO ${table} (index_name, document_id) SELECT $1, unnest($2::text[])
         RETURNING seq::text AS seq, document_id`,
        index,
        documentIds.map(String),
      );
      context.indexWrites ??= [];
      for (const row of rows)
        context.indexWrites.push({ table, index, documentId: row.document_id, seq: row.seq });
    },
    clearing(sql, inner) {
      const cleared: IndexWrites = {
        async upsert(documents) {
          await inner.upsert(documents);
          await clear(
            sql,
            documents.map((document) => document.id),
          );
        },
        async remove(ids) {
          await inner.remove(ids);
          await clear(sql, ids);
        },
      };
      return { ...inner, ...cleared };
    },
  };
}
