// Renders the profile screens inside a memory router at a given URL, with the routes they lead to and a probe
// that shows the current location; signs in a member (with or without a profile) or a contributor.
import { type AuthUser, setSession } from '@rotunda/session';
import { act, render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import ProfileCreate from '../../src/ProfileCreate';
import ProfilePage from '../../src/ProfilePage';

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

export function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/profile/create" element={<ProfileCreate />} />
        <Route path="/profile/:id" element={<ProfilePage />} />
        <Route path="*" element={<p>Elsewhere</p>} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

export const SELF_USER_ID = 'u-self';

/** Rosa Nguyen, signed in; `profileId` null for a member who has not created or claimed a profile yet. */
export function signIn({
  contributor = false,
  profileId = null,
}: {
  contributor?: boolean;
  profileId?: number | null;
} = {}): AuthUser {
  const user: AuthUser = {
    token: 'test-token',
    user_id: SELF_USER_ID,
    profile_id: profileId,
    first_name: 'Rosa',
    last_name: 'Nguyen',
    email: 'rosa.nguyen@dof.ca.gov',
    contributor,
    email_confirmed: true,
  };
  act(() => setSession(user));
  return user;
}
