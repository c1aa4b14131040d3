// The organizations screens render their page headings.
import { render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import OrganizationList from '../src/OrganizationList';
import OrganizationProfile from '../src/OrganizationProfile';

it('shows the Organizations heading on the list', () => {
  render(<OrganizationList />);
  expect(screen.getByRole('heading', { level: 1, name: 'Organizations' })).toBeTruthy();
});

it('shows the Organization heading on a profile', () => {
  render(<OrganizationProfile />);
  expect(screen.getByRole('heading', { level: 1, name: 'Organization' })).toBeTruthy();
});
