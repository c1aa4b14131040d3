// The route table (spec §2). Screens owned by micro-frontends are loaded at run time; the landing page, the
// reset-password and confirm-email pages and the 404 page belong to the shell. Each screen's view is keyed by its
// module, so moving to another screen starts a fresh view instead of rendering the old screen at the new path.
import { Route, Routes } from 'react-router';
import { RedirectOwnersToProfile, RequireAuth } from './guard';
import { Layout } from './layout/Layout';
import { ConfirmEmail } from './pages/ConfirmEmail';
import { Home } from './pages/Home';
import { NotFound } from './pages/NotFound';
import { ResetPassword } from './pages/ResetPassword';
import { RemoteView } from './remotes/RemoteView';

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Home />} />
        <Route
          path="public-square"
          element={
            <RemoteView key="mf_feed/PublicSquare" module="mf_feed/PublicSquare" label="Public Square" />
          }
        />
        <Route element={<RequireAuth />}>
          <Route
            path="directory"
            element={
              <RemoteView key="mf_directory/Directory" module="mf_directory/Directory" label="Directory" />
            }
          />
          <Route
            path="organizations"
            element={
              <RemoteView
                key="mf_organizations/OrganizationList"
                module="mf_organizations/OrganizationList"
                label="Organizations"
              />
            }
          />
          <Route
            path="organization/:id"
            element={
              <RemoteView
                key="mf_organizations/OrganizationProfile"
                module="mf_organizations/OrganizationProfile"
                label="Organization"
              />
            }
          />
          <Route element={<RedirectOwnersToProfile />}>
            <Route
              path="profile/create"
              element={
                <RemoteView
                  key="mf_profile/ProfileCreate"
                  module="mf_profile/ProfileCreate"
                  label="Profile creation"
                />
              }
            />
          </Route>
          <Route
            path="profile/:id"
            element={
              <RemoteView key="mf_profile/ProfilePage" module="mf_profile/ProfilePage" label="Profile" />
            }
          />
        </Route>
        <Route path="reset-password/:token" element={<ResetPassword />} />
        <Route path="confirm-email/:token" element={<ConfirmEmail />} />
        <Route path="error" element={<NotFound />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
