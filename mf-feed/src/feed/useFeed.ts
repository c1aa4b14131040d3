// The feed's data: the first 20 posts for the current order, type, search and "My issue areas", then the next 20
// each time the screen asks, only while the last page held exactly 20
// (docs/product.md#4-states-and-transitions, #9-business-constants-and-limits) — @rotunda/ui's usePages, over
// a list without a total. A change of query starts over, and answers to superseded requests are dropped. The
// screen's own changes (likes, comments, edits, deletions) are applied to the posts in place.
import { type PageFetcher, type Pages, usePages } from '@rotunda/ui';
import { useCallback } from 'react';
import { fetchPosts, PAGE_SIZE, type Post, type SortMode } from '../api';

export interface FeedFilters {
  sort: SortMode;
  seed: number;
  posttypeId: number | null;
  search: string;
  myIssues: boolean;
}

export interface Feed extends Pages<Post> {
  /** Replaces one post with what `change` makes of it. */
  updatePost: (postId: number, change: (post: Post) => Post) => void;
  removePost: (postId: number) => void;
}

const idOf = (post: Post) => post.post_id;

export function useFeed({ sort, seed, posttypeId, search, myIssues }: FeedFilters): Feed {
  // The offset is what is shown: a post deleted here has left the server's list too.
  const fetchPage = useCallback<PageFetcher<Post>>(
    (offset, _limit, signal) =>
      fetchPosts({ offset, sort, seed, posttypeId, search, myIssues }, signal).then((items) => ({ items })),
    [sort, seed, posttypeId, search, myIssues],
  );
  const pages = usePages(
    JSON.stringify([sort, seed, posttypeId, search, myIssues]),
    fetchPage,
    idOf,
    PAGE_SIZE,
  );
  const { update } = pages;

  const updatePost = useCallback(
    (postId: number, change: (post: Post) => Post) =>
      update((posts) => posts.map((post) => (post.post_id === postId ? change(post) : post))),
    [update],
  );

  const removePost = useCallback(
    (postId: number) => update((posts) => posts.filter((post) => post.post_id !== postId)),
    [update],
  );

  return { ...pages, updatePost, removePost };
}
