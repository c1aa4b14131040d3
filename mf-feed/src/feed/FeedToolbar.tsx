// The controls above the feed (docs/product.md#2-screens-and-routes): the search box, 'Create Post', the
// Recent / Popular / Random order (one at a time), 'My issue areas' (a toggle, offered to members whose
// profile covers an issue area) and the type filter with Reset.
import { SearchInput } from '@rotunda/ui';
import { Check, RotateCcw, SquarePen } from 'lucide-react';
import { type FormEvent, useId } from 'react';
import type { PostType, SortMode } from '../api';
import type { FeedFilterState } from './useFeedFilters';
import './feed-toolbar.css';

const SORTS: readonly { mode: SortMode; label: string }[] = [
  { mode: 'recent', label: 'Recent' },
  { mode: 'popular', label: 'Popular' },
  { mode: 'random', label: 'Random' },
];

interface FeedToolbarProps {
  filters: FeedFilterState;
  postTypes: readonly PostType[];
  /** Show 'My issue areas' (a signed-in member whose profile covers an issue area). */
  offerMyIssues: boolean;
  onCreate: () => void;
}

export function FeedToolbar({ filters, postTypes, offerMyIssues, onCreate }: FeedToolbarProps) {
  const searchId = useId();
  const typeId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    filters.applyText();
  };

  return (
    <div className="panel feed-toolbar">
      <div className="feed-toolbar__row">
        {/* The search landmark on the form itself; jsdom, where the tests run, does not know <search>. */}
        {/* biome-ignore lint/a11y/useSemanticElements: role="search" on a form is the long-supported form */}
        <form className="feed-toolbar__search" role="search" aria-label="Search posts" onSubmit={onSubmit}>
          <label className="visually-hidden" htmlFor={searchId}>
            Search posts
          </label>
          <SearchInput
            id={searchId}
            placeholder="Search posts"
            value={filters.text}
            onChange={filters.setText}
          />
        </form>
        <button
          type="button"
          className="button button--primary feed-toolbar__create"
          aria-haspopup="dialog"
          onClick={onCreate}
        >
          <SquarePen size={18} aria-hidden="true" />
          Create Post
        </button>
      </div>
      <div className="feed-toolbar__row">
        <fieldset className="toggle-row">
          <legend className="visually-hidden">Order of posts</legend>
          {SORTS.map(({ mode, label }) => (
            <button
              key={mode}
              type="button"
              className="toggle-pill feed-sort__button"
              aria-pressed={filters.sort === mode}
              onClick={() => filters.setSort(mode)}
            >
              {label}
            </button>
          ))}
        </fieldset>
        {offerMyIssues && (
          <button
            type="button"
            className="toggle-pill feed-sort__button feed-toolbar__mine"
            aria-pressed={filters.myIssues}
            title="Only posts by people who share one of your issue areas"
            onClick={() => filters.setMyIssues(!filters.myIssues)}
          >
            {filters.myIssues && <Check size={16} aria-hidden="true" />}
            My issue areas
          </button>
        )}
        <div className="feed-toolbar__filter">
          <label className="visually-hidden" htmlFor={typeId}>
            Filter by type
          </label>
          <select
            id={typeId}
            className="field__input field__input--select feed-toolbar__type"
            value={filters.posttypeId ?? ''}
            onChange={(event) =>
              filters.setPosttypeId(event.target.value === '' ? null : Number(event.target.value))
            }
          >
            <option value="">All types of posts</option>
            {postTypes.map((type) => (
              <option key={type.posttype_id} value={type.posttype_id}>
                {type.post_type}
              </option>
            ))}
          </select>
          <button type="button" className="button button--quiet" onClick={filters.reset}>
            <RotateCcw size={16} aria-hidden="true" />
            Reset
          </button>
        </div>
      </div>
    </div>
  );
}
