// The route table (spec §2). Screens owned by micro-frontends are loaded at run time; the landing page, the
// reset-password and confirm-email pages and the 404 page belong to the shell. Each screen's view is keyed by its
// module, so moving to another screen starts a fresh view instead of rendering the old screen at the new path.
// The remotes' paths and modules come from SCREENS, which the start-up preload reads too.
import { Route, Routes } from 'react-router';
import { RedirectOwnersToProfile, RequireAuth, RequireContributor } from './guard';
import { Layout } from './layout/Layout';
import { ConfirmEmail } from './pages/ConfirmEmail';
import { Home } from './pages/Home';
import { NotFound } from './pages/NotFound';
import { ResetPassword } from './pages/ResetPassword';
import { RemoteView } from './remotes/RemoteView';
import { type RemoteScreen, SCREENS } from './remotes/screens';

const remoteView = ({ module, label }: RemoteScreen) => (
  <RemoteView key={module} module={module} label={label} />
);

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Home />} />
        <Route path={SCREENS.publicSquare.path} element={remoteView(SCREENS.publicSquare)} />
        <Route element={<RequireAuth />}>
          <Route path={SCREENS.directory.path} element={remoteView(SCREENS.directory)} />
          <Route path={SCREENS.organizations.path} element={remoteView(SCREENS.organizations)} />
          <Route path={SCREENS.organization.path} element={remoteView(SCREENS.organization)} />
          <Route element={<RedirectOwnersToProfile />}>
            <Route path={SCREENS.profileCreate.path} element={remoteView(SCREENS.profileCreate)} />
          </Route>
          <Route path={SCREENS.profile.path} element={remoteView(SCREENS.profile)} />
          <Route element={<RequireContributor />}>
            <Route path={SCREENS.moderation.path} element={remoteView(SCREENS.moderation)} />
          </Route>
        </Route>
        <Route path="reset-password/:token" element={<ResetPassword />} />
        <Route path="confirm-email/:token" element={<ConfirmEmail />} />
        <Route path="error" element={<NotFound />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
