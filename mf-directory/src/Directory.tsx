// The people directory screen (/directory), exposed to the shell as 'mf_directory/Directory': a search box
// (every word, searched on the server), a group filter (the organization groups less 'Campaigns', plus
// 'Elected Officials' and 'Other'), an issue filter in alphabetical order, Reset, a grid of person cards that
// grows by 30 when the last card is fully in view (docs/product.md#2-screens-and-routes,
// #4-states-and-transitions, #5-validation-rules, #9-business-constants-and-limits), and the search's people
// as a CSV download. The filters live in the URL, so a search can be shared and survives a reload.
import { ELECTED_OFFICIAL_TITLES } from '@rotunda/rules';
import {
  ApiError,
  ErrorLine,
  FilterField,
  FilterForm,
  GroupOptions,
  Page,
  PagedList,
  type PageFetcher,
  ResetFilters,
  SearchInput,
  usePages,
  useUrlFilters,
} from '@rotunda/ui';
import { Users } from 'lucide-react';
import { useCallback, useId } from 'react';
import { fetchPeoplePage, PAGE_SIZE, type PersonCard as Person } from './api';
import { DownloadCsv } from './DownloadCsv';
import { ELECTED_OFFICIALS, HIDDEN_GROUPS, OTHER, useGroupOptions, useIssueOptions } from './filters/options';
import { PersonCard } from './list/PersonCard';
import '@rotunda/ui/controls.css';
import '@rotunda/ui/cards.css';
import '@rotunda/ui/states.css';
import './directory.css';

/** The query parameters of the selects, besides ?search. */
const SELECTS = ['group', 'issue'] as const;

const idOf = (person: Person) => person.profile_id;

/** What the groups that are not an organization group select, said under the filter. */
const GROUP_HINTS: Record<string, string> = {
  [ELECTED_OFFICIALS]: `Current title: ${ELECTED_OFFICIAL_TITLES.join(', ')}.`,
  [OTHER]: 'People at an organization of the group Other, and people with no current organization.',
};

/** An issue id as the server takes it (a whole number from 1); anything else in a hand-made link is ignored. */
const issueIdFrom = (value: string): string => (/^[1-9]\d{0,9}$/.test(value) ? value : '');

export default function Directory() {
  const filters = useUrlFilters(SELECTS);
  const { search } = filters;
  // A shared link naming a group the filter does not offer lists every group, as the select shows.
  const group = HIDDEN_GROUPS.includes(filters.values.group) ? '' : filters.values.group;
  const issue = issueIdFrom(filters.values.issue);
  const groupHint = GROUP_HINTS[group];

  const fetchPage = useCallback<PageFetcher<Person>>(
    (offset, limit, signal) =>
      fetchPeoplePage({ search, group, issue, offset, limit }, signal).then((page) => ({
        items: page.profiles,
        total: page.total,
        totalIsLowerBound: page.total_is_lower_bound,
      })),
    [search, group, issue],
  );
  const pagesKey = JSON.stringify([search, group, issue]);
  const pages = usePages(pagesKey, fetchPage, idOf, PAGE_SIZE);
  const groups = useGroupOptions();
  const issues = useIssueOptions();
  const searchId = useId();
  const groupId = useId();
  const groupHintId = useId();
  const issueId = useId();

  const { items: people, status } = pages;
  const filtered = search !== '' || group !== '' || issue !== '';

  return (
    <Page
      icon={Users}
      title="Directory"
      lede="People who work in and around state government: legislators and their staff, agencies, associations, advocates and campaigns."
    >
      <div className="dir">
        <div className="dir__layout">
          <FilterForm label="Filter people" className="filter-panel dir-filters" onSubmit={filters.applyText}>
            <FilterField id={searchId} label="Search people" className="dir-filters__search">
              <SearchInput
                id={searchId}
                placeholder="Name or title"
                value={filters.text}
                onChange={filters.setText}
              />
            </FilterField>
            <FilterField id={groupId} label="Group" className="dir-filters__select">
              <select
                id={groupId}
                className="field__input field__input--select dir-select"
                name="group"
                value={group}
                aria-describedby={groupHint ? groupHintId : undefined}
                onChange={(event) => filters.setValue('group', event.target.value)}
              >
                <GroupOptions names={groups.names} chosen={group} />
              </select>
              {groupHint && (
                <p id={groupHintId} className="dir-filters__hint">
                  {groupHint}
                </p>
              )}
            </FilterField>
            <FilterField id={issueId} label="Issue" className="dir-filters__select">
              <select
                id={issueId}
                className="field__input field__input--select dir-select"
                name="issue"
                value={issue}
                onChange={(event) => filters.setValue('issue', event.target.value)}
              >
                <option value="">All issues</option>
                {issues?.map((i) => (
                  <option key={i.issue_id} value={String(i.issue_id)}>
                    {i.issue_name}
                  </option>
                ))}
                {/* An issue named in a shared link keeps its place while the issues load (or if it is gone). */}
                {issue && !issues?.some((i) => String(i.issue_id) === issue) && (
                  <option value={issue}>{issues ? 'Unlisted issue' : 'Loading issues…'}</option>
                )}
              </select>
            </FilterField>
            <ResetFilters className="dir-filters__reset" active={filters.active} onReset={filters.reset} />
          </FilterForm>

          <section className="dir-results" aria-label="People found" aria-busy={status === 'loading'}>
            <div className="dir-results__bar">
              <p className="results-count" aria-live="polite">
                {status === 'ready' && countText(pages.total, pages.totalIsLowerBound, filtered)}
              </p>
              {status === 'ready' && people.length > 0 && (
                <DownloadCsv key={pagesKey} search={search} group={group} issue={issue} />
              )}
            </div>
            <PagedList
              pages={pages}
              noun="people"
              listClassName="card-grid dir-grid"
              staleClassName="card-grid--stale"
              itemKey={idOf}
              renderItem={(person) => <PersonCard person={person} />}
            >
              {status === 'error' &&
                (pages.error instanceof ApiError && pages.error.status === 400 ? (
                  // Trying the same filters again would fail again: the way out is the Reset button above.
                  <ErrorLine>{`This search could not be run (${pages.error.serverMessage ?? 'bad filters'}). Reset the filters and try another.`}</ErrorLine>
                ) : (
                  <ErrorLine onRetry={pages.retry}>
                    People could not be loaded right now. Please try again in a moment.
                  </ErrorLine>
                ))}
              {status === 'ready' && people.length === 0 && (
                <div className="empty-state">
                  <p className="empty-state__title">No people match your search.</p>
                  <p className="empty-state__text">
                    Try fewer or different words, another group or another issue.
                  </p>
                </div>
              )}
            </PagedList>
          </section>
        </div>
      </div>
    </Page>
  );
}

/** '94 people', '1,000+ people found' when the server stopped counting. */
function countText(total: number, atLeast: boolean, filtered: boolean): string {
  if (total === 0) return 'No people found';
  const count = `${total.toLocaleString('en-US')}${atLeast ? '+' : ''} ${total === 1 && !atLeast ? 'person' : 'people'}`;
  return filtered ? `${count} found` : count;
}
