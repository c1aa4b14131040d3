// The organization list screen (/organizations), exposed to the shell as 'mf_organizations/OrganizationList':
// a search box (every word, searched on the server), a group filter without 'Campaigns', Reset, and a grid of
// cards that grows by 30 when the last card is fully in view (docs/product.md#2-screens-and-routes,
// #4-states-and-transitions, #9-business-constants-and-limits). The filters live in the URL.
import {
  ErrorLine,
  FilterField,
  FilterForm,
  fetchGroups,
  GroupOptions,
  Page,
  PagedList,
  type PageFetcher,
  ResetFilters,
  SearchInput,
  usePages,
  useUrlFilters,
} from '@rotunda/ui';
import { Building2 } from 'lucide-react';
import { useCallback, useEffect, useId, useState } from 'react';
import { fetchOrganizationPage, type Organization, PAGE_SIZE } from './api';
import { OrganizationCard } from './list/OrganizationCard';
import '@rotunda/ui/controls.css';
import '@rotunda/ui/cards.css';
import '@rotunda/ui/states.css';
import './common/organization-badges.css';
import './list/organization-list.css';

/**
 * The group the organization filters leave out (docs/product.md#2-screens-and-routes: 'Campaigns' is hidden).
 */
export const HIDDEN_GROUP = 'Campaigns';

const SELECTS = ['group'] as const;

export default function OrganizationList() {
  const filters = useUrlFilters(SELECTS);
  // A shared link naming the hidden group lists every group, as the select shows.
  const group = filters.values.group === HIDDEN_GROUP ? '' : filters.values.group;
  const { search } = filters;
  const fetchPage = useCallback<PageFetcher<Organization>>(
    (offset, limit, signal) =>
      fetchOrganizationPage({ search, group, offset, limit }, signal).then((page) => ({
        items: page.organizations,
        total: page.total,
      })),
    [search, group],
  );
  const pages = usePages(JSON.stringify([search, group]), fetchPage, idOf, PAGE_SIZE);
  const groups = useGroups();
  const searchId = useId();
  const groupId = useId();

  const { items: organizations, status } = pages;

  return (
    <Page
      icon={Building2}
      title="Organizations"
      lede="Agencies, associations, unions, lobbying firms and legislative offices, with the people who work there."
    >
      <FilterForm
        label="Filter organizations"
        className="filter-panel orgs-filters"
        onSubmit={filters.applyText}
      >
        <FilterField id={searchId} label="Search by name" className="orgs-filters__search">
          <SearchInput
            id={searchId}
            placeholder="e.g. water board"
            value={filters.text}
            onChange={filters.setText}
          />
        </FilterField>
        <FilterField id={groupId} label="Group" className="orgs-filters__group">
          <select
            id={groupId}
            className="field__input field__input--select"
            name="group"
            value={group}
            onChange={(event) => filters.setValue('group', event.target.value)}
          >
            <GroupOptions names={groups} chosen={group} />
          </select>
        </FilterField>
        <ResetFilters className="orgs-filters__reset" active={filters.active} onReset={filters.reset} />
      </FilterForm>

      <section className="orgs-results" aria-label="Organizations found" aria-busy={status === 'loading'}>
        <p className="results-count" aria-live="polite">
          {status === 'ready' && countText(pages.total, filters.search !== '' || group !== '')}
        </p>
        <PagedList
          pages={pages}
          noun="organizations"
          listClassName="card-grid orgs-grid"
          staleClassName="card-grid--stale"
          itemKey={idOf}
          renderItem={(organization) => <OrganizationCard organization={organization} />}
        >
          {status === 'error' && (
            <ErrorLine onRetry={pages.retry}>
              Organizations could not be loaded right now. Please try again in a moment.
            </ErrorLine>
          )}
          {status === 'ready' && organizations.length === 0 && (
            <div className="empty-state">
              <p className="empty-state__title">No organizations match your search.</p>
              <p className="empty-state__text">Try fewer or different words, or another group.</p>
            </div>
          )}
        </PagedList>
      </section>
    </Page>
  );
}

const idOf = (organization: Organization) => organization.organization_id;

function countText(total: number, filtered: boolean): string {
  const noun = total === 1 ? 'organization' : 'organizations';
  if (total === 0) return '';
  return filtered
    ? `${total.toLocaleString('en-US')} ${noun} found`
    : `${total.toLocaleString('en-US')} ${noun}`;
}

/** The organization groups' names for the filter, without 'Campaigns'; none (only 'All groups') if the call fails. */
function useGroups(): string[] {
  const [groups, setGroups] = useState<string[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    fetchGroups(controller.signal).then(
      (all) => setGroups(all.map((group) => group.group_name).filter((name) => name !== HIDDEN_GROUP)),
      (error: unknown) => {
        if (!controller.signal.aborted) console.error('Organization groups could not be loaded', error);
      },
    );
    return () => controller.abort();
  }, []);
  return groups;
}
