// The org service's ports: what its rules need from the outside world. Adapters implement them (Prisma on
// the org schema, the search index on Postgres or Elasticsearch, the image pipeline and the S3 object store).

import type { OrganizationFieldValues } from '@rotunda/rules';
import type { Curation, HistoryRepository } from './history.ts';
import type { Division, Group, NewDivision, NewOrganization, Organization } from './organization.ts';

/**
 * Writes that take a `curation` record it in the change's transaction, only when the change is made (a name
 * already taken, or a row gone, records nothing).
 */
export interface OrganizationRepository extends HistoryRepository {
  /** Writes the fixed groups (idempotent). */
  ensureGroups(groups: readonly Group[]): Promise<void>;
  listGroups(): Promise<Group[]>;
  count(): Promise<number>;
  /** Every organization the list shows (not hidden), by name. */
  listVisible(): Promise<Organization[]>;
  findById(organizationId: number): Promise<Organization | null>;
  /** The organizations of these ids that exist, in the order of `ids`. */
  findByIds(ids: readonly number[]): Promise<Organization[]>;
  /**
   * Creates the organization unless one whose name folds alike (@rotunda/rules foldName: case, accents, unseen
   * characters, spaces) exists, which is answered instead. Atomic: two members adding names that fold alike at
   * once get one organization.
   */
  addUnlessNamed(
    organization: NewOrganization,
    curation?: Curation,
  ): Promise<{ organization: Organization; created: boolean }>;
  /** Another organization than `exceptId` whose name folds alike, if any. */
  findOtherNamed(name: string, exceptId: number): Promise<Organization | null>;
  /**
   * Keys every organization by its folded name as foldName folds it now (the migration keyed them in SQL); one
   * that reads like an older one keeps what it had. Answers how many it re-keyed.
   */
  rekeyNames(): Promise<number>;
  /**
   * Null when the organization does not exist; 'name_taken' when another took a name that folds alike first.
   * Setting `websiteConfirmedBy` records when; null clears both.
   */
  update(
    organizationId: number,
    changes: Partial<OrganizationFieldValues> & {
      organizationName?: string;
      emailDomains?: string[];
      websiteConfirmedBy?: string | null;
    },
    curation?: Curation,
  ): Promise<Organization | null | 'name_taken'>;
  /** Points the logo at `url`; answers the previous one, or null when the organization does not exist. */
  setLogo(
    organizationId: number,
    url: string,
    curation?: Curation,
  ): Promise<{ previous: string | null } | null>;
  /** Visits every organization in id order, `batchSize` at a time (to rebuild the search index). */
  forEachBatch(batchSize: number, visit: (batch: Organization[]) => Promise<void>): Promise<void>;

  /**
   * Organizations (the hidden one too) with an id above `afterOrganizationId` and divisions with an id above
   * `afterDivisionId`, by id, at most `limit` of each (null: all), for other services' read copies.
   */
  exportNames(page: {
    afterOrganizationId: number;
    afterDivisionId: number;
    limit: number | null;
  }): Promise<{ organizations: Organization[]; divisions: Division[] }>;

  divisionsOf(organizationId: number): Promise<Division[]>;
  /** Active divisions whose name contains every word (case-insensitive), by name, at most `limit`. */
  findDivisionsByWords(words: readonly string[], limit: number): Promise<Division[]>;
  /** Creates the division unless the organization has one of the same name (ignoring case); atomic. */
  addDivisionUnlessNamed(
    division: NewDivision,
    curation?: Curation,
  ): Promise<{ division: Division; created: boolean }>;
}
