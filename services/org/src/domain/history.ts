// The org service's curation history (issue 20): who created or changed an organization, its logo or its
// divisions, when, and each field's value before and after, as the page shows it. The domain says what to record;
// the repository writes the record in the same transaction as the change, so the history never tells of a change
// that did not happen. Only contributors read it.
import { type Caller, notFound, requireContributor } from '@rotunda/service-kit';

/** What a history entry records. Stable keys: the pages name them. */
export type HistoryAction =
  | 'organization_created'
  | 'organization_edited'
  | 'logo_changed'
  | 'division_added';

/** One field a change touched, named as the REST API names it; null: empty before (or after). */
export interface FieldChange {
  field: string;
  from: string | null;
  to: string | null;
}

/** A change to record: the member who made it, what they did and the fields it touched. */
export interface Curation {
  actorUserId: string;
  action: HistoryAction;
  changes: FieldChange[];
}

export interface HistoryEntry extends Curation {
  id: number;
  at: Date;
}

export interface HistoryRepository {
  /** The organization's entries older than `beforeId` (all when null), newest first, at most `limit`. */
  historyOf(organizationId: number, beforeId: number | null, limit: number): Promise<HistoryEntry[]>;
}

/** The longest page of history one call answers. */
export const HISTORY_PAGE = 100;

/** The REST API's name of a field of the domain ('streetAddress' → 'street_address'). */
export const apiFieldName = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A value as the page shows it: empty text is no value. */
const shown = (value: unknown): string | null =>
  value === null || value === undefined || value === '' ? null : String(value);

/** The fields whose value differs between `before` and `after`, among those `after` names. */
export function fieldChanges<T extends object>(before: Partial<T>, after: Partial<T>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const from = shown((before as Record<string, unknown>)[field]);
    const to = shown(value);
    if (from !== to) changes.push({ field: apiFieldName(field), from, to });
  }
  return changes;
}

export function createHistoryReader(
  history: HistoryRepository,
  exists: (organizationId: number) => Promise<boolean>,
  message: string,
) {
  return async (
    caller: Caller | undefined,
    organizationId: number,
    beforeId: number,
    limit: number,
  ): Promise<HistoryEntry[]> => {
    requireContributor(caller);
    if (!Number.isSafeInteger(organizationId) || organizationId <= 0 || !(await exists(organizationId)))
      throw notFound(message);
    const page = limit > 0 ? Math.min(Math.floor(limit), HISTORY_PAGE) : HISTORY_PAGE;
    return history.historyOf(organizationId, beforeId > 0 ? Math.floor(beforeId) : null, page);
  };
}
