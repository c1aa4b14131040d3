// The org service's curation history (issue 20): who created or changed an organization, its logo or its
// divisions, when, and each field's value before and after, as the page shows it. The domain says what to record;
// the repository writes the record in the same transaction as the change, so the history never tells of a change
// that did not happen. Only contributors read it.
import {
  type Caller,
  historyPageSize,
  type Curation as KitCuration,
  type HistoryEntry as KitHistoryEntry,
  notFound,
  requireContributor,
} from '@rotunda/service-kit';

/** What a history entry records. Stable keys: the pages name them. */
export type HistoryAction =
  | 'organization_created'
  | 'organization_edited'
  | 'logo_changed'
  | 'division_added';

/** A change to the organization to record. */
export type Curation = KitCuration<HistoryAction>;
export type HistoryEntry = KitHistoryEntry<HistoryAction>;

export interface HistoryRepository {
  /** The organization's entries older than `beforeId` (all when null), newest first, at most `limit`. */
  historyOf(organizationId: number, beforeId: number | null, limit: number): Promise<HistoryEntry[]>;
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
    return history.historyOf(
      organizationId,
      beforeId > 0 ? Math.floor(beforeId) : null,
      historyPageSize(limit),
    );
  };
}
