// The menu button opens the slide-out sidebar with the navigation items, also for visitors.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { renderAt } from './support';

it('opens the slide-out menu with every item and closes it on navigation', async () => {
  renderAt('/');
  await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
  const menu = screen.getByRole('dialog', { name: 'Menu' });
  for (const name of ['Public Square', 'Directory', 'Organizations', 'Profile', 'Feedback']) {
    expect(within(menu).getByRole('link', { name })).toBeTruthy();
  }
  await userEvent.click(within(menu).getByRole('link', { name: 'Public Square' }));
  expect(screen.getByTestId('location').textContent).toBe('/public-square');
  expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull();
});
