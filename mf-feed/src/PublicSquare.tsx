// The public square (/public-square), exposed to the shell as 'mf_feed/PublicSquare', open to visitors
// (docs/product.md#2-screens-and-routes, #6-roles-and-permissions): the search box, 'Create Post', the order,
// 'My issue areas' (members whose profile covers an issue area) and the type filter, the feed of posts and
// the Headlines column beside it when the square has room; narrower, a Posts / Headlines toggle shows one at
// a time. Members like, comment and post, and find their reports' outcomes under 'Your reports'; a visitor's
// 'Create Post' asks the shell for its login dialog. The create
// and read dialogs (with the rich-text editor and the calendar file) load when first opened. The read dialog is
// the post's own address (/public-square/post/:id, usePostAddress): a shared link opens it over the square, and a
// post the server does not show answers the 404 panel. Once its first screen is drawn it says so (FirstScreenDrawn),
// so the one the gateway drew gives way to it.
import { requestLogin, useUser } from '@rotunda/session';
import { ErrorLine, FirstScreenDrawn, NotFoundPanel, Spinner } from '@rotunda/ui';
import { ArrowLeft } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { countRead, fetchPostTypes, type PostType } from './api';
import { useNarrowerThan } from './common/useNarrowerThan';
import { useOpenedOnce } from './common/useOpenedOnce';
import { FeedList } from './feed/FeedList';
import { FeedToolbar } from './feed/FeedToolbar';
import { useCoversIssueAreas } from './feed/useCoversIssueAreas';
import { useFeed } from './feed/useFeed';
import { useFeedFilters } from './feed/useFeedFilters';
import { useLikes } from './feed/useLikes';
import { usePostActions } from './feed/usePostActions';
import { useTypeList } from './feed/useTypeList';
import { Headlines } from './headlines/Headlines';
import { SQUARE_PATH, usePostAddress } from './post/usePostAddress';
import { MyReportsButton } from './report/MyReports';
import '@rotunda/ui/controls.css';
import '@rotunda/ui/page.css';
import '@rotunda/ui/states.css';
// With the square's own styles rather than the read dialog's code: a post's address draws that dialog in its
// first screen (ADR 0053), which links the square's stylesheets only.
import './post/post-dialogs.css';
import './square.css';

type Column = 'posts' | 'headlines';

const CreatePostDialog = lazy(() =>
  import(/* webpackChunkName: "create-post-dialog" */ './create/CreatePostDialog').then((m) => ({
    default: m.CreatePostDialog,
  })),
);
const ReadPostDialog = lazy(() =>
  import(/* webpackChunkName: "read-post-dialog" */ './post/ReadPostDialog').then((m) => ({
    default: m.ReadPostDialog,
  })),
);

/**
 * Every opening of a post is one more read; the count is the server's
 * (docs/product.md#4-states-and-transitions).
 */
const countReadOf = (postId: number) => {
  countRead(postId).catch((error: unknown) => console.error('The read could not be counted', error));
};

/** A post address the server shows no post at: hidden, removed, or never written. */
function MissingPost() {
  return (
    <NotFoundPanel
      title="This post is not in session."
      text="It may have been removed, or the link may be mistyped. The public square shows every post."
    >
      <Link to={SQUARE_PATH} className="button button--primary">
        <ArrowLeft size={16} aria-hidden="true" />
        Back to the public square
      </Link>
    </NotFoundPanel>
  );
}

/** Shown over the page while a dialog's code arrives; the dialog then opens with the focus in it. */
function DialogLoading({ label }: { label: string }) {
  return (
    <div className="dialog-loading">
      <Spinner label={label} />
    </div>
  );
}

/**
 * The square's own width from which the two columns show: what a 770 px window gives it without the sidebar
 * (docs/product.md#9-business-constants-and-limits: two columns from 770 px; the page has 24 px each side).
 * The signed-in sidebar takes room too, so the square's width decides rather than the window's: an 800 px
 * window with the sidebar open shows one column, not two cramped ones.
 */
export const TWO_COLUMNS_FROM_PX = 722;

export default function PublicSquare() {
  const user = useUser();
  const filters = useFeedFilters();
  const offerMyIssues = useCoversIssueAreas(user);
  // Only while offered: a member who signs out (or no longer covers any) sees the whole feed again.
  const myIssues = filters.myIssues && offerMyIssues;
  const feed = useFeed({ ...filters, myIssues });
  const address = usePostAddress(feed, countReadOf);
  const likes = useLikes(user, address.updatePost);
  const actions = usePostActions(address);
  const postTypes = useTypeList<PostType>(fetchPostTypes);
  const [column, setColumn] = useState<Column>('posts');
  const [squareRef, narrow] = useNarrowerThan(TWO_COLUMNS_FROM_PX);
  const [creating, setCreating] = useState(false);
  const reading = address.reading;
  const createOpened = useOpenedOnce(creating);
  const readOpened = useOpenedOnce(reading !== null);

  const openCreate = () => {
    if (user) setCreating(true);
    else requestLogin();
  };

  const onCreated = () => {
    setCreating(false);
    // The new post shows first: Recent, with nothing filtered out.
    filters.reset();
    feed.retry();
  };

  if (address.missing) {
    return (
      <>
        <MissingPost />
        <FirstScreenDrawn />
      </>
    );
  }
  // The first screen is drawn when the feed's first page (or its error) is shown and, at a post's address, the
  // post's dialog has opened over it (inside its Suspense) or its error shows.
  const squareDrawn = feed.status !== 'loading' && !address.loading && reading === null;

  return (
    <div className="page square" ref={squareRef}>
      <header>
        <h1 className="page-title">Public Square</h1>
        <p className="page-lede">
          Announcements, events and the day&rsquo;s news from California&rsquo;s policy community.
        </p>
        <MyReportsButton />
      </header>

      {address.failed && (
        <ErrorLine onRetry={address.retry}>
          This post could not be loaded right now. Please try again in a moment.
        </ErrorLine>
      )}
      {(squareDrawn || address.failed) && <FirstScreenDrawn />}

      {narrow && (
        <fieldset className="toggle-row">
          <legend className="visually-hidden">Show</legend>
          {(['posts', 'headlines'] as const).map((name) => (
            <button
              key={name}
              type="button"
              className="toggle-pill feed-sort__button"
              aria-pressed={column === name}
              onClick={() => setColumn(name)}
            >
              {name === 'posts' ? 'Posts' : 'Headlines'}
            </button>
          ))}
        </fieldset>
      )}

      <div
        className={narrow ? 'square__columns' : 'square__columns square__columns--two'}
        data-column={narrow ? column : undefined}
      >
        <div className="square__main">
          <FeedToolbar
            filters={filters}
            postTypes={postTypes}
            offerMyIssues={offerMyIssues}
            onCreate={openCreate}
          />
          <FeedList
            feed={feed}
            likes={likes}
            visitor={user === null}
            filtered={filters.search !== '' || filters.posttypeId !== null}
            myIssues={myIssues}
            onRead={address.open}
            onComment={actions.addComment}
          />
        </div>
        <aside className="square__aside" aria-label="News">
          <Headlines />
        </aside>
      </div>

      {user && createOpened && (
        <Suspense fallback={<DialogLoading label="Opening Create Post" />}>
          <CreatePostDialog
            open={creating}
            postTypes={postTypes}
            onClose={() => setCreating(false)}
            onCreated={onCreated}
          />
        </Suspense>
      )}
      {address.loading && <DialogLoading label="Opening the post" />}
      {readOpened && (
        <Suspense fallback={<DialogLoading label="Opening the post" />}>
          <ReadPostDialog post={reading} user={user} actions={actions} onClose={address.close} />
          {feed.status !== 'loading' && <FirstScreenDrawn />}
        </Suspense>
      )}
    </div>
  );
}
