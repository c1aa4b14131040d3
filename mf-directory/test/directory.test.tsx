// The directory screen renders its page heading.
import { render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import Directory from '../src/Directory';

it('shows the Directory heading', () => {
  render(<Directory />);
  expect(screen.getByRole('heading', { level: 1, name: 'Directory' })).toBeTruthy();
});
