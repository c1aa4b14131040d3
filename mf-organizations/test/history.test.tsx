// The organization page's History section: contributors see the curation history newest first as the gateway
// answers it ("date · who · what", each field's old → new value in a list, long change lists folded behind a
// disclosure); members see no History and their browser never asks for it.
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { detail, json, stubFetch } from './support/api';
import { renderAt, signIn } from './support/render';

const organization = detail({ organization_id: 12, organization_name: 'Delta Stewards League' });

const HISTORY = [
  {
    id: 9,
    at: '2026-11-26T20:15:00.000Z',
    actor: { user_id: 'c-1', first_name: 'Connie', last_name: 'Concierge' },
    action: 'organization_edited',
    changes: [
      { field: 'city', from: 'Sacramento', to: 'Davis' },
      { field: 'main_phone', from: null, to: '(916) 555-0100' },
    ],
  },
  {
    id: 3,
    at: '2026-11-20T09:00:00.000Z',
    actor: { user_id: 'm-1', first_name: '', last_name: '' },
    action: 'organization_created',
    changes: [
      { field: 'organization_name', from: null, to: 'Delta Stewards' },
      { field: 'group_type', from: null, to: 'Associations' },
      { field: 'street_address', from: null, to: '1 K St' },
      { field: 'city', from: null, to: 'Sacramento' },
    ],
  },
];

function open() {
  const calls = stubFetch({
    'GET /api/orgs/12': () => json(organization),
    'POST /api/profiles/organization-colleagues': () => json([]),
    'GET /api/history/organization/12': () => json(HISTORY),
  });
  renderAt('/organization/12');
  return calls;
}

describe('History', () => {
  it('shows a contributor each change newest first, who made it and the old and new values', async () => {
    signIn({ contributor: true });
    open();
    const section = (await screen.findByRole('heading', { level: 2, name: 'History' })).closest('section');
    await within(section as HTMLElement).findByText('Connie Concierge');
    const entries = within(section as HTMLElement).getAllByRole('listitem');
    expect(entries).toHaveLength(2);
    expect(entries[0]?.textContent).toContain('Connie Concierge');
    expect(entries[0]?.textContent).toContain('edited the organization');
    const terms = within(entries[0] as HTMLElement)
      .getAllByRole('term')
      .map((t) => t.textContent);
    expect(terms).toEqual(['City', 'Phone']);
    const values = within(entries[0] as HTMLElement)
      .getAllByRole('definition')
      .map((d) => d.textContent?.replace(/\s+/g, ' '));
    expect(values).toEqual(['Sacramento → changed to Davis', '(empty) → changed to (916) 555-0100']);
    expect(entries[1]?.textContent).toContain('A member without a profile');
    const folded = within(entries[1] as HTMLElement).getByText('4 fields changed');
    expect(folded.closest('details')?.open).toBe(false);
    fireEvent.click(folded);
    expect(folded.closest('details')?.open).toBe(true);
  });

  it('shows a member no History and never asks for it', async () => {
    signIn();
    const calls = open();
    await screen.findByRole('heading', { level: 1, name: 'Delta Stewards League' });
    await screen.findByText('No people to show.');
    expect(screen.queryByRole('heading', { name: 'History' })).toBeNull();
    expect(calls.some((call) => call.url.pathname.startsWith('/api/history'))).toBe(false);
  });
});
