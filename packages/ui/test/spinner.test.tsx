// The shared spinner: a labelled status for screen readers, or decoration when the text beside it says
// what is happening.
import { render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { Spinner } from '../src/index';

it('is a labelled status, or decoration without a label', () => {
  const { container } = render(
    <>
      <Spinner label="Loading organizations" />
      <Spinner size="inline" />
    </>,
  );
  expect(screen.getByRole('status', { name: 'Loading organizations' }).className).toBe(
    'spinner spinner--large',
  );
  const decorative = container.querySelector('.spinner--inline');
  expect(decorative?.getAttribute('aria-hidden')).toBe('true');
  expect(decorative?.getAttribute('role')).toBeNull();
});
