// The start-up preload: the path's micro-frontend screen is found as the router finds it, and its remote is
// preloaded before the shell renders; the shell's own pages preload nothing, and a failed preload is only
// logged (the screen's own load still runs). A visitor's public square starts its first feed page too.

import { FIRST_FEED_ELEMENT_ID } from '@rotunda/rules';
import { AUTH_STORAGE_KEY } from '@rotunda/session';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EARLY_REQUESTS, SESSION_STORAGE_KEY } from '../src/remotes/early';
import { preloadScreenAt } from '../src/remotes/preload';
import { SCREENS, screenAt } from '../src/remotes/screens';

describe('screenAt', () => {
  it.each([
    ['/public-square', 'mf_feed/PublicSquare'],
    ['/Public-Square/', 'mf_feed/PublicSquare'],
    ['/directory', 'mf_directory/Directory'],
    ['/organizations', 'mf_organizations/OrganizationList'],
    ['/organization/12', 'mf_organizations/OrganizationProfile'],
    ['/profile/create', 'mf_profile/ProfileCreate'],
    ['/profile/7', 'mf_profile/ProfilePage'],
  ])('finds the screen at %s: %s', (path, module) => {
    expect(screenAt(path)?.module).toBe(module);
  });

  it.each([
    '/',
    '/reset-password/abc',
    '/confirm-email/abc',
    '/error',
    '/nowhere',
    '/organization',
    '/public-square/2',
  ])('finds no remote screen at %s', (path) => {
    expect(screenAt(path)).toBeNull();
  });
});

const earlyRequests = () =>
  (globalThis as unknown as Record<string, Map<string, Promise<Response>> | undefined>)[EARLY_REQUESTS];

afterEach(() => {
  earlyRequests()?.clear();
  localStorage.clear();
});

describe('preloadScreenAt', () => {
  it('preloads the remote of the current screen at once', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json([])),
    );
    const preload = vi.fn(async () => {});
    expect(preloadScreenAt('/public-square', preload)).toBe(SCREENS.publicSquare.module);
    expect(preload).toHaveBeenCalledExactlyOnceWith('mf_feed/PublicSquare');
  });

  it('preloads nothing on the shell’s own pages', () => {
    vi.stubGlobal('fetch', vi.fn());
    const preload = vi.fn(async () => {});
    expect(preloadScreenAt('/', preload)).toBeNull();
    expect(preload).not.toHaveBeenCalled();
  });

  it('starts a visitor’s first feed page and hands it over under the request mf-feed makes', () => {
    const fetchMock = vi.fn(async () => Response.json([]));
    vi.stubGlobal('fetch', fetchMock);
    preloadScreenAt('/public-square', async () => {});
    const body = '{"offset":0,"limit":20,"sort":"recent"}';
    expect(fetchMock).toHaveBeenCalledExactlyOnceWith('/api/posts/all', {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body,
    });
    expect([...(earlyRequests()?.keys() ?? [])]).toEqual([`POST /api/posts/all ${body}`]);
  });

  it('starts nothing early when the page the gateway drew already carries the first feed page', () => {
    const fetchMock = vi.fn(async () => Response.json([]));
    vi.stubGlobal('fetch', fetchMock);
    const carried = document.createElement('script');
    carried.type = 'application/json';
    carried.id = FIRST_FEED_ELEMENT_ID;
    carried.textContent = '[]';
    document.body.append(carried);
    try {
      preloadScreenAt('/public-square', async () => {});
    } finally {
      carried.remove();
    }
    expect(fetchMock).not.toHaveBeenCalled();
    expect(earlyRequests()?.size ?? 0).toBe(0);
  });

  it('starts nothing early for a signed-in member (their requests carry a token), nor on other screens', () => {
    expect(SESSION_STORAGE_KEY).toBe(AUTH_STORAGE_KEY);
    const fetchMock = vi.fn(async () => Response.json([]));
    vi.stubGlobal('fetch', fetchMock);
    localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ isAuthenticated: true, token: 't' }));
    preloadScreenAt('/public-square', async () => {});
    localStorage.clear();
    preloadScreenAt('/directory', async () => {});
    expect(fetchMock).not.toHaveBeenCalled();
    expect(earlyRequests()?.size ?? 0).toBe(0);
  });

  it('only logs a failed preload', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failure = new Error('GET /remotes.json answered 503');
    preloadScreenAt('/directory', async () => {
      throw failure;
    });
    await vi.waitFor(() =>
      expect(warn).toHaveBeenCalledWith(
        'Could not preload mf_directory/Directory; it loads when shown',
        failure,
      ),
    );
    warn.mockRestore();
  });
});
