// Curation history (issue 20, ADR 0031), as every owning service records it: the fields a change touched, each
// named as the REST API names it, with its value before and after as the page shows it. Each service says which
// actions it records and writes the entries in its own schema, in the change's transaction.

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
export const historyPageSize = (limit: number) =>
  limit > 0 ? Math.min(Math.floor(limit), HISTORY_PAGE) : HISTORY_PAGE;

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
