// The start-up preload: the path's micro-frontend screen is found as the router finds it, and its remote is
// preloaded before the shell renders; the shell's own pages preload nothing, and a failed preload is only
// logged (the screen's own load still runs).
import { describe, expect, it, vi } from 'vitest';
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

describe('preloadScreenAt', () => {
  it('preloads the remote of the current screen at once', () => {
    const preload = vi.fn(async () => {});
    expect(preloadScreenAt('/public-square', preload)).toBe(SCREENS.publicSquare.module);
    expect(preload).toHaveBeenCalledExactlyOnceWith('mf_feed/PublicSquare');
  });

  it('preloads nothing on the shell’s own pages', () => {
    const preload = vi.fn(async () => {});
    expect(preloadScreenAt('/', preload)).toBeNull();
    expect(preload).not.toHaveBeenCalled();
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
