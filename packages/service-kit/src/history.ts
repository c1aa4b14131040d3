// Curation history (ADR 0031), as every owning service records it: the fields a change touched, each
// named as the REST API names it, with its value before and after as the page shows it. Each service says which
// actions it records and writes the entries in its own schema, in the change's transaction; contributors alone
// read a history, a page at a time, and its entries go out over gRPC in one message shape.
import { type Caller, requireContributor } from './caller.ts';
import { notFound } from './errors.ts';

/** One field a change touched; null: empty before (or after). */
export interface FieldChange {
  field: string;
  from: string | null;
  to: string | null;
}

/** A change to record: the member who made it, what they did and the fields it touched. */
export interface Curation<Action extends string> {
  actorUserId: string;
  action: Action;
  changes: FieldChange[];
}

export interface HistoryEntry<Action extends string> extends Curation<Action> {
  id: number;
  at: Date;
}

/** The longest page of history one call answers. */
export const HISTORY_PAGE = 100;

/** The page a call asks for: 0 or less means the longest. */
const historyPageSize = (limit: number) =>
  limit > 0 ? Math.min(Math.floor(limit), HISTORY_PAGE) : HISTORY_PAGE;

/** A history table's row, as each service stores its entries: the changes as JSON. */
export interface HistoryRow {
  historyId: bigint;
  at: Date;
  actorUserId: string;
  action: string;
  changes: unknown;
}

/** A stored row as the history's entry; its action is one the service recorded. */
export function historyEntryOf<Action extends string>(row: HistoryRow): HistoryEntry<Action> {
  return {
    id: Number(row.historyId),
    at: row.at,
    actorUserId: row.actorUserId,
    action: row.action as Action,
    changes: row.changes as FieldChange[],
  };
}

/** What a history table stores of a change: nothing when there is no curation or it changed no field. */
export function historyRecordOf<Action extends string>(
  curation: Curation<Action> | undefined,
): Curation<Action> | null {
  if (!curation || curation.changes.length === 0) return null;
  return { actorUserId: curation.actorUserId, action: curation.action, changes: curation.changes };
}

/**
 * A history as contributors read it: newest first, a page of entries older than `beforeId` (0: from the newest).
 * Anyone else is refused; a subject that does not exist is NOT_FOUND with `notFoundMessage`.
 */
export function createHistoryReader<Action extends string>(
  historyOf: (subjectId: number, beforeId: number | null, limit: number) => Promise<HistoryEntry<Action>[]>,
  exists: (subjectId: number) => Promise<boolean>,
  notFoundMessage: string,
) {
  return async (
    caller: Caller | undefined,
    subjectId: number,
    beforeId: number,
    limit: number,
  ): Promise<HistoryEntry<Action>[]> => {
    requireContributor(caller);
    if (!Number.isSafeInteger(subjectId) || subjectId <= 0 || !(await exists(subjectId)))
      throw notFound(notFoundMessage);
    return historyOf(subjectId, beforeId > 0 ? Math.floor(beforeId) : null, historyPageSize(limit));
  };
}

/** An entry as the services' history messages carry it: an empty value is absent, which REST shows as null. */
export function historyEntryMessage<Action extends string>(entry: HistoryEntry<Action>) {
  return {
    id: entry.id,
    at: entry.at,
    actor_user_id: entry.actorUserId,
    action: entry.action,
    changes: entry.changes.map((change) => ({
      field: change.field,
      from: change.from ?? undefined,
      to: change.to ?? undefined,
    })),
  };
}

/** The REST API's name of a field of the domain ('streetAddress' → 'street_address'). */
export const apiFieldName = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A value as the page shows it: empty text is no value; yes/no for flags. */
function shown(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/** The fields whose value differs between `before` and `after`, among those `after` names. */
export function fieldChanges(before: object, after: object): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const from = shown((before as Record<string, unknown>)[field]);
    const to = shown(value);
    if (from !== to) changes.push({ field: apiFieldName(field), from, to });
  }
  return changes;
}
