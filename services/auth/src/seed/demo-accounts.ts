// Demo accounts and access lists for the one-machine default (ADR 0008). Fictional people.
import { ADMIN_ROLE } from '@rotunda/rules';
import { CONTRIBUTOR_ROLE } from '@rotunda/service-kit';
import type { AccessLists, IdentityProvider } from '../domain/ports.ts';

export const DEMO_ACCOUNTS = [
  {
    email: 'concierge@demo.ca.gov',
    password: 'Concierge#2024',
    firstName: 'Camila',
    lastName: 'Reyes',
    contributor: true,
    admin: false,
  },
  {
    email: 'member@demo.ca.gov',
    password: 'Member#2024x',
    firstName: 'Marcus',
    lastName: 'Chen',
    contributor: false,
    admin: false,
  },
  {
    email: 'newbie@demo.ca.gov',
    password: 'Newbie#2024x',
    firstName: 'Nora',
    lastName: 'Whitfield',
    contributor: false,
    admin: false,
  },
  {
    email: 'admin@demo.ca.gov',
    password: 'Admin#2024x',
    firstName: 'Adele',
    lastName: 'Okafor',
    contributor: false,
    admin: true,
  },
] as const;

const DEMO_LISTS = {
  'approved-domain': ['capitoladvocates.org', 'goldenstatelabor.org'],
  'approved-email': ['policy.director@valleywater.example'],
  'beta-email': ['beta.tester@civicpartners.example'],
} as const;

/** Creates what is missing; answers how many accounts it created. */
export async function seedDemoAccounts(identity: IdentityProvider, lists: AccessLists): Promise<number> {
  let created = 0;
  for (const account of DEMO_ACCOUNTS) {
    if (await identity.findUserByEmail(account.email)) continue;
    const user = await identity.createUser({ ...account, emailVerified: true });
    if (account.contributor) await identity.grantRole(user.id, CONTRIBUTOR_ROLE);
    if (account.admin) await identity.grantRole(user.id, ADMIN_ROLE);
    created += 1;
  }
  for (const [list, values] of Object.entries(DEMO_LISTS) as [keyof typeof DEMO_LISTS, readonly string[]][]) {
    for (const value of values) await lists.add(list, value);
  }
  return created;
}
