// An organization's email domains (verified employer) against a real PostgreSQL, S3 endpoint (s3rver) and real
// gRPC: a contributor lists them (normalized), every refusal (not a host name, a scheme, public webmail, more
// than ten, a member) says why and changes nothing, leaving the field out keeps them, and the change
// notification and ExportNames carry the domains that count (the website's host and the listed ones); the list
// answers none for an organization stored in the search index before the field existed.
import { status } from '@grpc/grpc-js';
import { type Change, listenForChanges } from '@rotunda/events';
import { EMAIL_DOMAIN_MESSAGES } from '@rotunda/rules';
import type { SearchIndex } from '@rotunda/search';
import type { Caller, Logger } from '@rotunda/service-kit';
import { refusal } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Organization } from '../src/domain/organization.ts';
import { searchDocumentOf } from '../src/domain/organization-search.ts';
import { CONTRIBUTOR, MEMBER, type OrgUnderTest, startOrgUnderTest } from './support/org-under-test.ts';

let service: OrgUnderTest;
let logger: Logger;
let databaseUrl: string;
let prisma: PrismaClient;
let index: SearchIndex;
let rpc: OrgUnderTest['rpc'];

async function added(name: string, website: string) {
  const answer = await rpc(
    'addOrganization',
    {
      organization_name: name,
      group_type: 'Agencies',
      fields: { street_address: '915 L St', city: 'Sacramento', website },
    },
    CONTRIBUTOR,
  );
  return answer.organization?.organization_id as number;
}

const setDomains = (organizationId: number, domains: string[], caller: Caller = CONTRIBUTOR) =>
  rpc('updateOrganization', { organization_id: organizationId, email_domains: { domains } }, caller);

const stored = async (organizationId: number) =>
  (await prisma.organization.findUniqueOrThrow({ where: { organizationId } })).emailDomains;

/** Listens on the change channel while `act` runs; answers the organization changes announced, in order. */
async function announced(act: () => Promise<unknown>, count: number): Promise<Change[]> {
  const heard: Change[] = [];
  const listener = listenForChanges({ databaseUrl, logger, onChange: (change) => void heard.push(change) });
  await listener.ready;
  await act();
  await expect.poll(() => heard.length).toBe(count);
  await listener.close();
  return heard;
}

beforeAll(async () => {
  service = await startOrgUnderTest('org-email-domains-test');
  ({ logger, databaseUrl, prisma, index, rpc } = service);
});

afterAll(async () => {
  await service?.close();
});

describe('email domains of an organization', () => {
  it('a contributor lists them; they are stored and answered lower-case, without www., once each', async () => {
    const id = await added('Department of Finance', 'https://www.dof.ca.gov/');
    const answer = await setDomains(id, ['EBudget.CA.gov', 'www.dof.ca.gov', 'ebudget.ca.gov']);
    expect(answer.email_domains).toEqual(['ebudget.ca.gov', 'dof.ca.gov']);
    expect(await stored(id)).toEqual(['ebudget.ca.gov', 'dof.ca.gov']);
    const { organization } = await rpc('getOrganization', { organization_id: id }, MEMBER);
    expect(organization?.email_domains).toEqual(['ebudget.ca.gov', 'dof.ca.gov']);
  });

  it('an edit without the field keeps them; an empty list clears them', async () => {
    const id = await added('State Controller', 'https://sco.ca.gov');
    await setDomains(id, ['sco.ca.gov']);
    await rpc('updateOrganization', { organization_id: id, fields: { city: 'Davis' } }, CONTRIBUTOR);
    expect(await stored(id)).toEqual(['sco.ca.gov']);
    await setDomains(id, []);
    expect(await stored(id)).toEqual([]);
  });

  it('refuses what is not a host name, public webmail and more than ten, with the rule message; nothing saved', async () => {
    const id = await added('Franchise Tax Board', 'https://ftb.ca.gov');
    await setDomains(id, ['ftb.ca.gov']);
    const cases: [string[], string][] = [
      [['https://ftb.ca.gov'], EMAIL_DOMAIN_MESSAGES.invalid('https://ftb.ca.gov')],
      [['ftb.ca.gov/people'], EMAIL_DOMAIN_MESSAGES.invalid('ftb.ca.gov/people')],
      [['jane@ftb.ca.gov'], EMAIL_DOMAIN_MESSAGES.invalid('jane@ftb.ca.gov')],
      [['gov'], EMAIL_DOMAIN_MESSAGES.invalid('gov')],
      [['ftb.ca.gov', 'Gmail.com'], EMAIL_DOMAIN_MESSAGES.webmail('gmail.com')],
      [Array.from({ length: 11 }, (_, i) => `d${i}.ftb.ca.gov`), EMAIL_DOMAIN_MESSAGES.tooMany],
    ];
    for (const [domains, message] of cases) {
      expect(
        await refusal(
          rpc(
            'updateOrganization',
            { organization_id: id, organization_name: 'Renamed Board', email_domains: { domains } },
            CONTRIBUTOR,
          ),
        ),
      ).toEqual({ code: status.INVALID_ARGUMENT, details: message });
    }
    const row = await prisma.organization.findUniqueOrThrow({ where: { organizationId: id } });
    expect(row.emailDomains).toEqual(['ftb.ca.gov']);
    expect(row.organizationName).toBe('Franchise Tax Board');
  });

  it('answers none for an organization the list stored before organizations had email domains', async () => {
    const id = await added('Lottery Commission', 'https://calottery.com');
    const { organization } = await rpc('getOrganization', { organization_id: id }, MEMBER);
    const { emailDomains: _none, ...stored } = {
      organizationId: id,
      organizationName: 'Lottery Commission',
      groupId: 2,
      groupName: 'Agencies',
      emailDomains: [],
      streetAddress: organization?.street_address ?? null,
      hidden: false,
    } as unknown as Organization;
    await index.upsert([searchDocumentOf(stored as Organization)]);
    const { organizations } = await rpc(
      'searchOrganizations',
      { text: 'Lottery Commission', group: '', offset: 0, limit: 5 },
      MEMBER,
    );
    expect(organizations.map((o) => [o.organization_name, o.email_domains])).toEqual([
      ['Lottery Commission', []],
    ]);
  });

  it('refuses a member', async () => {
    const id = await added('Air Resources Board', 'https://arb.ca.gov');
    expect((await refusal(setDomains(id, ['arb.ca.gov'], MEMBER))).code).toBe(status.PERMISSION_DENIED);
    expect(await stored(id)).toEqual([]);
  });

  it("announces the domains that count: the website's host and the listed ones", async () => {
    const id = await added('Senate', 'https://www.senate.ca.gov/about');
    const heard = await announced(() => setDomains(id, ['sen.ca.gov']), 1);
    expect(heard[0]).toMatchObject({
      kind: 'organization',
      organization_id: id,
      email_domains: ['senate.ca.gov', 'sen.ca.gov'],
    });
    const website = await announced(
      () => rpc('updateOrganization', { organization_id: id, fields: { website: '' } }, CONTRIBUTOR),
      1,
    );
    expect(website[0]).toMatchObject({ email_domains: ['sen.ca.gov'] });
    const { organizations } = await rpc('exportNames', {});
    expect(organizations.find((o) => o.organization_id === id)?.email_domains).toEqual(['sen.ca.gov']);
  });

  it('announces nothing for a refused list', async () => {
    const id = await added('Assembly', 'https://assembly.ca.gov');
    const heard: Change[] = [];
    const listener = listenForChanges({ databaseUrl, logger, onChange: (change) => void heard.push(change) });
    await listener.ready;
    await refusal(setDomains(id, ['outlook.com']));
    await added('Legislative Analyst', 'https://lao.ca.gov');
    await expect.poll(() => heard.length).toBe(1);
    await listener.close();
    expect(heard[0]).toMatchObject({ organization_name: 'Legislative Analyst' });
  });
});
