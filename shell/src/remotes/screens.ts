// The screens the micro-frontends own: each route path with the exposed module that renders it. The route
// table (AppRoutes) and the start-up preload (preload.ts) both read this list, so the remote that is
// preloaded for a path is the one its route renders. No React or router here: index.ts loads this before the
// shared singletons are set up.
import type { EarlyRequest } from './early';
import type { RemoteModuleId } from './federation';

export interface RemoteScreen {
  /** The route path, relative to the root, in the router's syntax ('organization/:id'). */
  path: string;
  module: RemoteModuleId;
  /** What the page is called in messages, e.g. 'Public Square'. */
  label: string;
  /** The screen's first data request for a visitor, started early (early.ts). */
  early?: EarlyRequest;
}

export const SCREENS = {
  publicSquare: {
    path: 'public-square',
    module: 'mf_feed/PublicSquare',
    label: 'Public Square',
    // The feed's first page as mf-feed asks for it: Recent, nothing filtered (its filters start so).
    early: {
      method: 'POST',
      path: '/api/posts/all',
      body: JSON.stringify({ offset: 0, limit: 20, sort: 'recent' }),
    },
  },
  directory: { path: 'directory', module: 'mf_directory/Directory', label: 'Directory' },
  organizations: {
    path: 'organizations',
    module: 'mf_organizations/OrganizationList',
    label: 'Organizations',
  },
  organization: {
    path: 'organization/:id',
    module: 'mf_organizations/OrganizationProfile',
    label: 'Organization',
  },
  profileCreate: { path: 'profile/create', module: 'mf_profile/ProfileCreate', label: 'Profile creation' },
  profile: { path: 'profile/:id', module: 'mf_profile/ProfilePage', label: 'Profile' },
  moderation: { path: 'moderation', module: 'mf_feed/Moderation', label: 'Moderation' },
} as const satisfies Record<string, RemoteScreen>;

const segments = (path: string) => path.split('/').filter((segment) => segment !== '');

/**
 * The screen whose route matches `pathname` as the router matches it (whole segments, ignoring case and a
 * trailing slash; ':id' takes any one segment), or null for the shell's own pages.
 */
export function screenAt(pathname: string): RemoteScreen | null {
  const wanted = segments(pathname);
  for (const screen of Object.values(SCREENS)) {
    const pattern = segments(screen.path);
    if (
      pattern.length === wanted.length &&
      pattern.every(
        (part, index) => part.startsWith(':') || part.toLowerCase() === wanted[index]?.toLowerCase(),
      )
    )
      return screen;
  }
  return null;
}
