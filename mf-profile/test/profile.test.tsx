// The profile screens render their headings; profile creation greets the signed-in user by name.
import { type AuthUser, clearSession, setSession } from '@rotunda/session';
import { act, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import ProfileCreate from '../src/ProfileCreate';
import ProfilePage from '../src/ProfilePage';

const newcomer: AuthUser = {
  token: 't',
  user_id: 'u9',
  profile_id: null,
  first_name: 'Rosa',
  last_name: 'Nguyen',
  email: 'rosa@dof.ca.gov',
  contributor: false,
  email_confirmed: true,
};

afterEach(() => act(() => clearSession()));

it('shows the Create your profile heading and welcomes the signed-in user', () => {
  act(() => setSession(newcomer));
  render(<ProfileCreate />);
  expect(screen.getByRole('heading', { level: 1, name: 'Create your profile' })).toBeTruthy();
  expect(screen.getByText(/Welcome to Rotunda, Rosa\./)).toBeTruthy();
});

it('shows the Profile heading', () => {
  render(<ProfilePage />);
  expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeTruthy();
});
