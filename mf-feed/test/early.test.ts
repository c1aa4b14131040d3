// A visitor's first feed page started early by the shell (shell/src/remotes/early.ts), or carried by the page the
// gateway drew (ADR 0053): the feed takes that answer once, for exactly that request and only without a token,
// and otherwise asks the server itself.

import { FIRST_FEED_ELEMENT_ID } from '@rotunda/rules';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EARLY_REQUESTS, fetchPosts } from '../src/api';
import { callsTo, post, squareRoutes, stubApi } from './support/api';
import { findCard, renderSquare, signIn } from './support/render';

/** The shell's early request for the public square (shell/src/remotes/screens.ts). */
const FIRST_PAGE = 'POST /api/posts/all {"offset":0,"limit":20,"sort":"recent"}';
const firstPage = { offset: 0, sort: 'recent', seed: 1, posttypeId: null, search: '' } as const;

function handOver(answer: Promise<Response>) {
  (globalThis as unknown as Record<string, Map<string, Promise<Response>>>)[EARLY_REQUESTS] = new Map([
    [FIRST_PAGE, answer],
  ]);
}

const ownRequests = () => {
  const fetchMock = vi.fn(async (_path: string, _init?: RequestInit) =>
    Response.json([post({ post_id: 2, post_title: 'Own request' })]),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
};

/** The page the gateway drew for /public-square, carrying `posts` as its first feed page. */
function carry(posts: unknown[]) {
  const data = document.createElement('script');
  data.type = 'application/json';
  data.id = FIRST_FEED_ELEMENT_ID;
  data.textContent = JSON.stringify(posts);
  document.body.append(data);
}

afterEach(() => {
  document.getElementById(FIRST_FEED_ELEMENT_ID)?.remove();
  delete (globalThis as Record<string, unknown>)[EARLY_REQUESTS];
  vi.unstubAllGlobals();
});

describe('the early first page', () => {
  it('is taken once by a visitor’s first page; the next identical call asks the server', async () => {
    handOver(Promise.resolve(Response.json([post({ post_id: 1, post_title: 'Early' })])));
    const fetchMock = ownRequests();
    expect((await fetchPosts(firstPage)).map((p) => p.post_title)).toEqual(['Early']);
    expect(fetchMock).not.toHaveBeenCalled();
    expect((await fetchPosts(firstPage)).map((p) => p.post_title)).toEqual(['Own request']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('is not taken for another request', async () => {
    handOver(Promise.resolve(Response.json([post({ post_id: 1, post_title: 'Early' })])));
    const fetchMock = ownRequests();
    await fetchPosts({ ...firstPage, sort: 'popular' });
    await fetchPosts({ ...firstPage, offset: 20 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('is not taken by a signed-in member, whose request carries the token', async () => {
    handOver(Promise.resolve(Response.json([post({ post_id: 1, post_title: 'Early' })])));
    const fetchMock = ownRequests();
    signIn();
    expect((await fetchPosts(firstPage)).map((p) => p.post_title)).toEqual(['Own request']);
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get('x-auth-token')).toBe('test-token');
  });

  it.each([
    ['failed', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['answered 503', () => Promise.resolve(new Response('', { status: 503 }))],
  ])('that %s leaves the feed to make its own request', async (_name, answer) => {
    handOver(answer());
    const fetchMock = ownRequests();
    expect((await fetchPosts(firstPage)).map((p) => p.post_title)).toEqual(['Own request']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('the first page the gateway drew', () => {
  it('is the square’s first render for a visitor, asking the server nothing for it', async () => {
    carry([post({ post_id: 3, post_title: 'Drawn by the gateway' })]);
    const calls = stubApi(squareRoutes([post({ post_id: 4, post_title: 'Asked again' })]));
    renderSquare();
    expect(await findCard('Drawn by the gateway')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Asked again' })).toBeNull();
    expect(callsTo(calls, 'POST /api/posts/all')).toEqual([]);
    expect(document.getElementById(FIRST_FEED_ELEMENT_ID)).toBeNull();
  });

  it('wins over the shell’s early request, is taken once, and only for the first page', async () => {
    handOver(Promise.resolve(Response.json([post({ post_id: 1, post_title: 'Early' })])));
    carry([post({ post_id: 3, post_title: 'Carried' })]);
    const fetchMock = ownRequests();
    await fetchPosts({ ...firstPage, sort: 'popular' });
    expect((await fetchPosts(firstPage)).map((p) => p.post_title)).toEqual(['Carried']);
    expect((await fetchPosts(firstPage)).map((p) => p.post_title)).toEqual(['Own request']);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('is not taken by a signed-in member, who gets their own view', async () => {
    carry([post({ post_id: 3, post_title: 'Carried' })]);
    const fetchMock = ownRequests();
    signIn();
    expect((await fetchPosts(firstPage)).map((p) => p.post_title)).toEqual(['Own request']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
