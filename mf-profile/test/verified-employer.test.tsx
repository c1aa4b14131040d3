// The "Verified employer" badge on the profile page: in words under the name, with an icon hidden from assistive
// technology, a tooltip and a screen-reader sentence saying what it means; absent when the answer says false.
import { VERIFIED_EMPLOYER } from '@rotunda/rules';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../src/api';
import { json, profile, stubFetch } from './support/api';
import { renderAt, signIn } from './support/render';

async function showProfile(shown: Profile) {
  signIn();
  stubFetch({
    'GET /api/profiles/profile/7': () => json(shown),
    'POST /api/profiles/organization-colleagues': () => json([]),
    'GET /api/issues/': () => json([]),
  });
  renderAt('/profile/7');
  await screen.findByRole('heading', { level: 1, name: `${shown.first_name} ${shown.last_name}` });
}

describe('the Verified employer badge on the profile page', () => {
  it('says "Verified employer" and what it means', async () => {
    await showProfile(profile({ verified_employer: true }));
    const badge = screen.getByText('Verified employer').parentElement as HTMLElement;
    expect(badge.getAttribute('title')).toBe(VERIFIED_EMPLOYER.description);
    expect(badge.textContent).toBe(`Verified employer: ${VERIFIED_EMPLOYER.description}`);
    expect(badge.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('is absent when the profile is not verified', async () => {
    await showProfile(profile({ verified_employer: false }));
    expect(screen.queryByText('Verified employer')).toBeNull();
  });
});
