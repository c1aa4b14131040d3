// Renders the public square inside a memory router at /public-square (or another entry, such as a post's address),
// as the shell routes it, with a probe that shows the current location (author links go to /profile/<id>); signs a
// member in.
import { type AuthUser, setSession } from '@rotunda/session';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import PublicSquare from '../../src/PublicSquare';

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

export function renderSquare(entry = '/public-square') {
  return render(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path="/public-square" element={<PublicSquare />} />
        <Route path="/public-square/post/:id" element={<PublicSquare />} />
        <Route path="*" element={<p>Elsewhere</p>} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

/** Eva Tester (user u-1, profile 50) signs in. */
export function signIn(overrides: Partial<AuthUser> = {}): AuthUser {
  const user: AuthUser = {
    token: 'test-token',
    user_id: 'u-1',
    profile_id: 50,
    first_name: 'Eva',
    last_name: 'Tester',
    email: 'eva@demo.ca.gov',
    contributor: false,
    email_confirmed: true,
    ...overrides,
  };
  setSession(user);
  return user;
}

/** The card of the post titled `title`, once it is shown. */
export async function findCard(title: string): Promise<HTMLElement> {
  return screen.findByRole('article', { name: title });
}

/** The open read modal. */
export function readModal(): HTMLElement {
  const dialog = document.querySelector<HTMLElement>('dialog[open]');
  if (!dialog) throw new Error('no dialog is open');
  return dialog;
}
