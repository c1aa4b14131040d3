// The route table (docs/product.md#2-screens-and-routes). Screens owned by micro-frontends are loaded at run
// time; the landing page, the reset-password and confirm-email pages and the 404 page belong to the shell.
// Each screen's view is keyed by its module, so moving to another screen starts a fresh view instead of
// rendering the old screen at the new path. The remotes' paths and modules come from SCREENS, which the
// start-up preload reads too. The member's notifications and settings, the administrators' screen, the
// unsubscribe page, the page an agency's sign-in comes back to and the accessibility statement load when
// first visited, so the first page stays light. A post's address (/public-square/post/:id, where
// notifications and shared links lead) opens the public square with that post's read dialog over it (mf-feed
// follows the address).
import { Spinner } from '@rotunda/ui';
import { lazy, type ReactNode, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { RedirectOwnersToProfile, RequireAdmin, RequireAuth, RequireContributor } from './guard';
import { Layout } from './layout/Layout';
import { ConfirmEmail } from './pages/ConfirmEmail';
import { Home } from './pages/Home';
import { NotFound } from './pages/NotFound';
import { ResetPassword } from './pages/ResetPassword';
import { RemoteView } from './remotes/RemoteView';
import { type RemoteScreen, SCREENS } from './remotes/screens';

const Notifications = lazy(() =>
  import(/* webpackChunkName: "notifications" */ './pages/Notifications').then((m) => ({
    default: m.Notifications,
  })),
);
const Settings = lazy(() =>
  import(/* webpackChunkName: "settings" */ './pages/Settings').then((m) => ({ default: m.Settings })),
);
const Admin = lazy(() =>
  import(/* webpackChunkName: "admin" */ './pages/Admin').then((m) => ({ default: m.Admin })),
);
const AgencyCallback = lazy(() =>
  import(/* webpackChunkName: "agency-callback" */ './pages/AgencyCallback').then((m) => ({
    default: m.AgencyCallback,
  })),
);
const AccessibilityStatement = lazy(() =>
  import(/* webpackChunkName: "accessibility" */ './pages/AccessibilityStatement').then((m) => ({
    default: m.AccessibilityStatement,
  })),
);
const Unsubscribe = lazy(() =>
  import(/* webpackChunkName: "unsubscribe" */ './pages/Unsubscribe').then((m) => ({
    default: m.Unsubscribe,
  })),
);

/** A shell page loaded on first visit, with a spinner while its code arrives. */
const later = (page: ReactNode, label: string) => (
  <Suspense
    fallback={
      <div className="remote-status">
        <Spinner label={`Loading ${label}`} />
      </div>
    }
  >
    {page}
  </Suspense>
);

const remoteView = ({ module, label }: RemoteScreen) => (
  <RemoteView key={module} module={module} label={label} />
);

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Home />} />
        <Route path={SCREENS.publicSquare.path} element={remoteView(SCREENS.publicSquare)} />
        <Route path="public-square/post/:id" element={remoteView(SCREENS.publicSquare)} />
        <Route element={<RequireAuth />}>
          <Route path={SCREENS.directory.path} element={remoteView(SCREENS.directory)} />
          <Route path={SCREENS.organizations.path} element={remoteView(SCREENS.organizations)} />
          <Route path={SCREENS.organization.path} element={remoteView(SCREENS.organization)} />
          <Route element={<RedirectOwnersToProfile />}>
            <Route path={SCREENS.profileCreate.path} element={remoteView(SCREENS.profileCreate)} />
          </Route>
          <Route path={SCREENS.profile.path} element={remoteView(SCREENS.profile)} />
          <Route path="notifications" element={later(<Notifications />, 'Notifications')} />
          <Route path="settings" element={later(<Settings />, 'Settings')} />
          <Route element={<RequireContributor />}>
            <Route path={SCREENS.moderation.path} element={remoteView(SCREENS.moderation)} />
          </Route>
          <Route element={<RequireAdmin />}>
            <Route path="admin" element={later(<Admin />, 'Access administration')} />
          </Route>
        </Route>
        <Route path="reset-password/:token" element={<ResetPassword />} />
        <Route path="confirm-email/:token" element={<ConfirmEmail />} />
        <Route path="accessibility" element={later(<AccessibilityStatement />, 'Accessibility statement')} />
        <Route path="unsubscribe" element={later(<Unsubscribe />, 'Unsubscribe')} />
        <Route path="agency-sign-in" element={later(<AgencyCallback />, 'your sign-in')} />
        <Route path="error" element={<NotFound />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
