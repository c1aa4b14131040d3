// The demo people at the size of the org service's demo (about forty organizations of every group): about a
// hundred distinct people, each with a current job, unique names and work emails, a handful unclaimed; and the
// seed's wait for the services it takes ids from.
import { ELECTED_OFFICIAL_TITLES } from '@rotunda/rules';
import { createLogger } from '@rotunda/service-kit';
import { describe, expect, it } from 'vitest';
import type { DivisionRef, OrganizationRef } from '../src/domain/model.ts';
import { demoPeople, NEWBIE_MATCH } from '../src/seed/demo-profiles.ts';
import { untilAnswered } from '../src/seed/wait.ts';

const logger = createLogger('profile-seed-test', 'silent');

const GROUP_SIZES: [string, number][] = [
  ['Associations', 7],
  ['Agencies', 6],
  ["Governor's Office", 2],
  ['Legislature', 4],
  ['Lobbyists', 6],
  ['Unions', 5],
  ['Campaigns', 3],
  ['Other', 5],
];

function demoWorld(): { organizations: OrganizationRef[]; divisions: DivisionRef[] } {
  const organizations: OrganizationRef[] = [];
  for (const [groupType, count] of GROUP_SIZES)
    for (let i = 0; i < count; i += 1)
      organizations.push({
        organizationId: organizations.length + 1,
        organizationName: `${groupType} Example ${i + 1}`,
        groupType,
        logo: null,
        emailDomains: [],
      });
  organizations.push({
    organizationId: 99,
    organizationName: 'Rotunda',
    groupType: 'Other',
    logo: null,
    emailDomains: [],
  });
  const divisions: DivisionRef[] = organizations
    .filter((o) => o.groupType === 'Agencies')
    .map((o, i) => ({
      divisionId: 100 + i,
      divisionName: `Office ${i}`,
      divisionType: 'Office',
      activeDivision: true,
      organizationId: o.organizationId,
      streetAddress: '715 P Street',
      suiteNumber: null,
      city: 'Sacramento',
      state: 'CA',
      zipCode: '95814',
      divisionPhone: null,
      website: null,
    }));
  return { organizations, divisions };
}

describe('demo people', () => {
  it('makes about a hundred distinct people, each with a current job, a handful unclaimed', () => {
    const { organizations, divisions } = demoWorld();
    const people = demoPeople(organizations, divisions);
    expect(people.length).toBeGreaterThanOrEqual(90);
    expect(people.length).toBeLessThanOrEqual(110);
    expect(new Set(people.map((p) => `${p.firstName} ${p.lastName}`)).size).toBe(people.length);
    expect(new Set(people.map((p) => p.workEmail)).size).toBe(people.length);
    for (const person of people) expect(person.jobs.filter((j) => j.endDate === null)).toHaveLength(1);
    const unclaimed = people.filter((p) => p.owner === 'unclaimed');
    expect(unclaimed.length).toBeGreaterThanOrEqual(5);
    expect(unclaimed.length).toBeLessThanOrEqual(12);
    expect(unclaimed.map((p) => p.workEmail)).toContain(NEWBIE_MATCH.workEmail);
    // Only the product's concierge works at the product's own organization.
    expect(people.filter((p) => p.jobs.some((j) => j.organization.organizationId === 99))).toHaveLength(1);
    const elected = people.filter((p) =>
      p.jobs.some((j) => (ELECTED_OFFICIAL_TITLES as readonly string[]).includes(j.title)),
    );
    expect(elected.length).toBeGreaterThanOrEqual(6);
    expect(people.some((p) => p.jobs.some((j) => j.division))).toBe(true);
    expect(people.filter((p) => p.jobs.length > 1).length).toBeGreaterThan(people.length / 3);
    // Past jobs end before the next one starts.
    for (const person of people)
      for (const job of person.jobs) if (job.endDate) expect(job.endDate > job.startDate).toBe(true);
  });

  it('is the same on every fresh demo', () => {
    const { organizations, divisions } = demoWorld();
    const names = (list: ReturnType<typeof demoPeople>) => list.map((p) => p.workEmail);
    expect(names(demoPeople(organizations, divisions))).toEqual(names(demoPeople(organizations, divisions)));
  });
});

describe('waiting for another service', () => {
  it('asks again until the service answers', async () => {
    let tries = 0;
    const answer = await untilAnswered(
      'the org service',
      async () => {
        tries += 1;
        if (tries < 3) throw new Error('UNAVAILABLE');
        return 'names';
      },
      logger,
      { timeoutMs: 2000, intervalMs: 10 },
    );
    expect(answer).toBe('names');
    expect(tries).toBe(3);
  });

  it('gives up after its deadline, naming the service and the last error', async () => {
    await expect(
      untilAnswered(
        'the auth service',
        async () => {
          throw new Error('14 UNAVAILABLE: No connection established');
        },
        logger,
        { timeoutMs: 100, intervalMs: 20 },
      ),
    ).rejects.toThrow(
      'the auth service did not answer within 0 s: 14 UNAVAILABLE: No connection established',
    );
  });
});
