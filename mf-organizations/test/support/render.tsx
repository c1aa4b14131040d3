// Renders the organization screens inside a memory router at a given URL, with a probe that shows the
// current location so tests can check what the URL holds; signs in a member or a contributor.
import { type AuthUser, setSession } from '@rotunda/session';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import OrganizationList from '../../src/OrganizationList';
import OrganizationProfile from '../../src/OrganizationProfile';

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/organizations" element={<OrganizationList />} />
        <Route path="/organization/:id" element={<OrganizationProfile />} />
        <Route path="*" element={<p>Elsewhere</p>} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

export function signIn({ contributor = false, profileId = 99 } = {}): AuthUser {
  const user: AuthUser = {
    token: 'test-token',
    user_id: 'u-1',
    profile_id: profileId,
    first_name: 'Eva',
    last_name: 'Tester',
    email: 'eva@demo.ca.gov',
    contributor,
    email_confirmed: true,
  };
  setSession(user);
  return user;
}
