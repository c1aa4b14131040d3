// The "Verified employer" badge on a directory card: in words with an icon hidden from assistive technology and a
// tooltip saying what it means; absent when the person is not verified.
import { VERIFIED_EMPLOYER } from '@rotunda/rules';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PersonCard } from '../src/list/PersonCard';
import { person } from './support/api';

const card = (verified: boolean) =>
  render(
    <MemoryRouter>
      <PersonCard person={person({ profile_id: 3, verified_employer: verified })} />
    </MemoryRouter>,
  );

describe('the Verified employer badge on a card', () => {
  it('says "Verified employer", with what it means as its tooltip and a decorative icon', () => {
    card(true);
    const badge = screen.getByText('Verified employer').parentElement as HTMLElement;
    expect(badge.getAttribute('title')).toBe(VERIFIED_EMPLOYER.description);
    expect(badge.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByRole('link').textContent).toContain('Verified employer');
  });

  it('is absent for a person who is not verified', () => {
    card(false);
    expect(screen.queryByText('Verified employer')).toBeNull();
  });
});
