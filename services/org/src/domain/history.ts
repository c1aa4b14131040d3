// The org service's curation history (ADR 0031): who created or changed an organization, its logo or its
// divisions, when, and each field's value before and after, as the page shows it. The domain says what to record;
// the repository writes the record in the same transaction as the change, so the history never tells of a change
// that did not happen. Only contributors read it (the service kit's history reader).
import type { Curation as KitCuration, HistoryEntry as KitHistoryEntry } from '@rotunda/service-kit';

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
