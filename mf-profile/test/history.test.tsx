// The profile page's History section: a contributor sees the profile's curation history (who, what, each field's
// old → new value); a member sees no History and never asks for it.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, profile, stubFetch } from './support/api';
import { renderAt, signIn } from './support/render';

const UNCLAIMED = profile({ profile_id: 7, user_id: null, first_name: 'Una', last_name: 'Curated' });

const HISTORY = [
  {
    id: 4,
    at: '2026-11-26T20:15:00.000Z',
    actor: { user_id: 'c-1', first_name: 'Connie', last_name: 'Concierge' },
    action: 'bio_edited',
    changes: [{ field: 'user_bio', from: null, to: 'Kept by the concierge desk.' }],
  },
];

function open() {
  const calls = stubFetch({
    'GET /api/profiles/profile/7': () => json(UNCLAIMED),
    'POST /api/profiles/organization-colleagues': () => json([]),
    'GET /api/issues/': () => json([]),
    'GET /api/history/profile/7': () => json(HISTORY),
  });
  renderAt('/profile/7');
  return calls;
}

describe('History', () => {
  it('shows a contributor who changed what, with the old and new values', async () => {
    signIn({ contributor: true });
    open();
    const heading = await screen.findByRole('heading', { level: 2, name: 'History' });
    const section = heading.closest('section') as HTMLElement;
    await within(section).findByText('Connie Concierge');
    expect(within(section).getByRole('listitem').textContent).toContain('edited the bio');
    expect(within(section).getByRole('term').textContent).toBe('Bio');
    expect(within(section).getByRole('definition').textContent?.replace(/\s+/g, ' ')).toBe(
      '(empty) → changed to Kept by the concierge desk.',
    );
  });

  it('shows a member no History and never asks for it', async () => {
    signIn();
    const calls = open();
    await screen.findByRole('heading', { level: 1, name: 'Una Curated' });
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname === '/api/profiles/organization-colleagues')).toBe(true),
    );
    expect(screen.queryByRole('heading', { name: 'History' })).toBeNull();
    expect(calls.some((call) => call.url.pathname.startsWith('/api/history'))).toBe(false);
  });
});
