// Demo people for the one-machine default (ADR 0008): about a hundred fictional profiles across
// the demo organizations, with current and past jobs (some in divisions), issue areas from a list of state
// policy areas, generated portraits, pronouns, socials, bios, lobbyists with filer ids, elected officials with
// the directory filter's titles, a handful of unclaimed profiles (one matching the newbie demo account, to
// claim), and the profiles of the concierge and member demo accounts. Other profiles belong to fictional
// accounts. Every name is made up; phones are in the (916) 555-01xx range kept for fiction, emails on example
// domains. Written once, into empty tables.
import { createHash } from 'node:crypto';
import { publishChange } from '@rotunda/events';
import { mediaUrl, type ObjectStore, objectKey } from '@rotunda/images';
import type { Logger } from '@rotunda/service-kit';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { DivisionRef, OrganizationAddress, OrganizationRef } from '../domain/model.ts';
import { renderAvatar } from './avatar.ts';
import { untilAnswered, type WaitOptions } from './wait.ts';

/** State policy areas members cover (docs/product.md#3-entities-and-their-fields IssueArea). */
export const ISSUE_AREAS = [
  'Agriculture',
  'Budget and Taxation',
  'Cannabis Regulation',
  'Child Care and Early Learning',
  'Civil Rights',
  'Climate Change',
  'Consumer Protection',
  'Criminal Justice Reform',
  'Economic Development',
  'Elections and Voting',
  'Emergency Management',
  'Energy and Utilities',
  'Environmental Protection',
  'Government Transparency',
  'Health Care',
  'Higher Education',
  'Homelessness',
  'Housing',
  'Immigration',
  'Insurance',
  'K-12 Education',
  'Labor and Employment',
  'Local Government',
  'Mental Health',
  'Pensions and Retirement',
  'Public Safety',
  'Small Business',
  'Technology and Privacy',
  'Transportation',
  'Tribal Affairs',
  'Veterans Affairs',
  'Water',
  'Wildfire Prevention',
] as const;

/** The demo accounts (services/auth's demo seed) whose profiles the seed writes. */
export const DEMO_ACCOUNT_EMAILS = {
  concierge: 'concierge@demo.ca.gov',
  member: 'member@demo.ca.gov',
} as const;

/** The unclaimed profile the newbie demo account finds in create-profile step 0 and may claim. */
export const NEWBIE_MATCH = { firstName: 'Nora', lastName: 'Whitfield', workEmail: 'newbie@demo.ca.gov' };

/** The product's own organization (hidden from lists): only its concierge works there. */
const PRODUCT_ORGANIZATION = 'Rotunda';

export interface SeedDependencies {
  prisma: PrismaClient;
  store: Pick<ObjectStore, 'put'>;
  /** Copies the org service's organizations and divisions into the read copy and answers them. */
  copyOrgNames: () => Promise<{ organizations: OrganizationRef[]; divisions: DivisionRef[] }>;
  /** The org service's address of an organization. */
  addressOf: (organizationId: number) => Promise<OrganizationAddress | null>;
  /** The auth service's account ids of these emails. */
  accountIds: (emails: readonly string[]) => Promise<Map<string, string>>;
  logger: Pick<Logger, 'info'>;
  /** Draws a person's picture; tests pass a cheap one. */
  picture?: (firstName: string, lastName: string) => Promise<Buffer>;
  wait?: WaitOptions;
}

export interface DemoJob {
  organization: OrganizationRef;
  division: DivisionRef | null;
  title: string;
  startDate: string;
  endDate: string | null;
}

export interface DemoPerson {
  firstName: string;
  lastName: string;
  workEmail: string;
  owner: { account: keyof typeof DEMO_ACCOUNT_EMAILS } | 'fictional' | 'unclaimed';
  jobs: DemoJob[];
  lobbyFilerId: string | null;
  pronouns: string | null;
  issues: string[];
  hasPicture: boolean;
  extras: Record<string, string | null>;
  birthday: string | null;
  userBio: string | null;
}

export const FIRST_NAMES = [
  'Adaeze',
  'Alicia',
  'Amir',
  'Ana',
  'Anjali',
  'Ben',
  'Bianca',
  'Brandon',
  'Carmen',
  'Chloe',
  'Daniel',
  'Deja',
  'Diego',
  'Elise',
  'Emeka',
  'Erin',
  'Farah',
  'Felix',
  'Gabriel',
  'Grace',
  'Hana',
  'Hector',
  'Imani',
  'Isaac',
  'Jasmine',
  'Javier',
  'Jenna',
  'Kai',
  'Kavya',
  'Keith',
  'Lana',
  'Leon',
  'Lucia',
  'Malik',
  'Mara',
  'Mateo',
  'Mei',
  'Miguel',
  'Naomi',
  'Nikhil',
  'Olivia',
  'Omar',
  'Paloma',
  'Priya',
  'Quinn',
  'Rafael',
  'Rebecca',
  'Rohan',
  'Rosa',
  'Samir',
  'Sara',
  'Sean',
  'Sofia',
  'Tariq',
  'Tessa',
  'Theo',
  'Uma',
  'Valeria',
  'Victor',
  'Wes',
  'Ximena',
  'Yara',
  'Yusuf',
  'Zoe',
];

export const LAST_NAMES = [
  'Abernathy',
  'Alvarado',
  'Bautista',
  'Bellamy',
  'Calloway',
  'Castellanos',
  'Chandrasekar',
  'Delacroix',
  'Donnelly',
  'Escobedo',
  'Fairbanks',
  'Fontaine',
  'Galvan',
  'Hargrove',
  'Haverford',
  'Ibarra',
  'Iwasaki',
  'Jablonski',
  'Kaplan',
  'Kensington',
  'Lachance',
  'Lindqvist',
  'Maldonado',
  'Marchetti',
  'Nakashima',
  'Navarro',
  'Oduya',
  'Okonkwo',
  'Pacheco',
  'Pemberton',
  'Quintero',
  'Ravensworth',
  'Rosales',
  'Sandoval',
  'Sorensen',
  'Takahashi',
  'Thornbury',
  'Underhill',
  'Valdivia',
  'Vasquez-Hale',
  'Wainwright',
  'Whitcombe',
  'Xiong',
  'Yamada',
  'Zamora',
  'Zelinski',
];

/** Titles by organization group: the first is the organization's lead, the rest its staff. */
export const TITLES: Record<string, string[]> = {
  Associations: [
    'Executive Director',
    'Director of Government Relations',
    'Legislative Advocate',
    'Policy Analyst',
    'Communications Manager',
  ],
  Agencies: [
    'Director',
    'Deputy Director',
    'Legislative Coordinator',
    'Research Analyst',
    'Public Information Officer',
    'Program Manager',
  ],
  "Governor's Office": [
    'Chief Deputy Legislative Secretary',
    'Deputy Cabinet Secretary',
    'Senior Advisor',
    'Press Secretary',
    'Appointments Secretary',
  ],
  Legislature: [
    'Chief of Staff',
    'Legislative Director',
    'Legislative Aide',
    'District Director',
    'Committee Consultant',
    'Field Representative',
  ],
  Lobbyists: ['Partner', 'Senior Legislative Advocate', 'Legislative Advocate', 'Associate'],
  Unions: ['President', 'Political Director', 'Legislative Advocate', 'Research Director'],
  Campaigns: ['Campaign Manager', 'Finance Director', 'Field Organizer', 'Communications Director'],
  Other: ['Executive Director', 'Senior Fellow', 'Research Director', 'Staff Attorney', 'Program Officer'],
};

/** How many generated people work at each organization of a group. */
const PEOPLE_PER_ORGANIZATION: Record<string, number> = {
  Associations: 2,
  Agencies: 3,
  "Governor's Office": 3,
  Legislature: 3,
  Lobbyists: 2,
  Unions: 2,
  Campaigns: 1,
  Other: 2,
};

/** Every so many generated people, one nobody has claimed yet (a contributor may edit it). */
const UNCLAIMED_EVERY = 12;

/** A small deterministic generator (mulberry32), so every fresh demo looks the same. */
export function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
    some: <T>(items: readonly T[], count: number): T[] => {
      const pool = [...items];
      const chosen: T[] = [];
      while (chosen.length < count && pool.length > 0)
        chosen.push(pool.splice(Math.floor(next() * pool.length), 1)[0] as T);
      return chosen;
    },
  };
}

type Random = ReturnType<typeof generator>;

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '');
const SMALL_WORDS = new Set(['of', 'the', 'and', 'for', 'on', '&']);
/** A made-up mail domain from the name's last two significant words ('Capitol Bridge Advocates' → bridgeadvocates). */
const domainOf = (organization: OrganizationRef) => {
  const words = organization.organizationName.split(/\s+/).filter((w) => !SMALL_WORDS.has(w.toLowerCase()));
  return `${slug(words.slice(-2).join('')) || 'example'}.example.org`;
};
const day = (year: number, month: number) => `${year}-${String(month).padStart(2, '0')}-01`;
const phone = (prefix: string, n: number) => `(${prefix}) 555-${String(100 + (n % 100)).padStart(4, '0')}`;

/** A stable made-up account id for a fictional person (the same on every fresh demo). */
export function fictionalUserId(email: string): string {
  const h = createHash('sha256').update(`rotunda-demo:${email}`).digest('hex');
  const variant = '89ab'[Number.parseInt(h[16] as string, 16) % 4];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function socialsOf(random: Random, handle: string): Record<string, string | null> {
  return {
    linkedinUrl: random.chance(0.6) ? `https://www.linkedin.com/in/${handle}-demo` : null,
    twitterUrl: random.chance(0.3) ? `https://x.com/${handle}demo` : null,
    blueskyUrl: random.chance(0.25) ? `https://bsky.app/profile/${handle}-demo.bsky.social` : null,
    instagramUrl: random.chance(0.1) ? `https://www.instagram.com/${handle}.demo` : null,
    threadsUrl: random.chance(0.08) ? `https://www.threads.net/@${handle}.demo` : null,
    facebookUrl: random.chance(0.08) ? `https://www.facebook.com/${handle}.demo` : null,
    youtubeUrl: null,
    tiktokUrl: null,
  };
}

function bioOf(random: Random, person: Pick<DemoPerson, 'firstName' | 'jobs' | 'issues'>): string {
  const [current, past] = person.jobs;
  const where = current
    ? `${current.title} at ${current.organization.organizationName}`
    : 'a policy professional';
  const [a = 'state policy', b = 'the budget', c = 'oversight'] = person.issues;
  const templates = [
    `${person.firstName} serves as ${where}, working on ${a} and ${b}.${past ? ` Previously ${past.title} at ${past.organization.organizationName}.` : ''}`,
    `${where}. Focused on ${a}, ${b} and ${c}, and on getting good policy from an idea to the Governor's desk.`,
    `${person.firstName} joined Rotunda to connect with colleagues across the Capitol. Currently ${where}, covering ${a}.`,
  ];
  return random.pick(templates);
}

export async function seedDemoProfiles(deps: SeedDependencies): Promise<number> {
  const { prisma, store, logger, picture = renderAvatar } = deps;
  if ((await prisma.profile.count()) > 0) return 0;

  const { organizations, divisions } = await untilAnswered(
    'the org service',
    deps.copyOrgNames,
    logger,
    deps.wait,
  );
  const accounts = await untilAnswered(
    'the auth service',
    () => deps.accountIds(Object.values(DEMO_ACCOUNT_EMAILS)),
    logger,
    deps.wait,
  );
  if (organizations.length === 0) return 0;

  const people = demoPeople(organizations, divisions);
  const addresses = new Map<number, OrganizationAddress | null>();
  for (const id of new Set(people.flatMap((p) => p.jobs.map((j) => j.organization.organizationId))))
    addresses.set(id, await deps.addressOf(id));

  await ensureIssueAreas(prisma);
  const issueIds = new Map(
    (await prisma.issueArea.findMany()).map((issue) => [issue.issueName, issue.issueId] as const),
  );

  // Pictures first: the object store is not part of the transaction.
  const pictures = new Map<DemoPerson, string>();
  for (const person of people.filter((p) => p.hasPicture)) {
    const key = objectKey('pictures', 'jpg');
    await store.put(key, await picture(person.firstName, person.lastName), 'image/jpeg');
    pictures.set(person, mediaUrl(key));
  }

  await prisma.$transaction(
    async (tx) => {
      for (const person of people) {
        const userId =
          person.owner === 'unclaimed'
            ? null
            : person.owner === 'fictional'
              ? fictionalUserId(person.workEmail)
              : (accounts.get(DEMO_ACCOUNT_EMAILS[person.owner.account]) ?? null);
        const row = await tx.profile.create({
          data: {
            userId,
            firstName: person.firstName,
            lastName: person.lastName,
            workEmail: person.workEmail,
            pronouns: person.pronouns,
            profilePicture: pictures.get(person) ?? null,
            lobbyFilerId: person.lobbyFilerId,
            birthday: person.birthday ? new Date(`${person.birthday}T00:00:00Z`) : null,
            userBio: person.userBio,
            ...person.extras,
          },
        });
        // Children one statement at a time: a transaction holds one connection.
        await tx.jobExperience.createMany({
          data: person.jobs.map((job) => {
            const place = job.division ?? addresses.get(job.organization.organizationId);
            return {
              profileId: row.profileId,
              title: job.title,
              organizationId: job.organization.organizationId,
              divisionId: job.division?.divisionId ?? null,
              streetAddress: place?.streetAddress ?? '1 Capitol Mall',
              suiteNumber: place?.suiteNumber ?? null,
              city: place?.city ?? 'Sacramento',
              state: place?.state ?? 'CA',
              zipCode: place?.zipCode ?? '95814',
              startDate: new Date(`${job.startDate}T00:00:00Z`),
              endDate: job.endDate ? new Date(`${job.endDate}T00:00:00Z`) : null,
              currentJob: job.endDate === null,
            };
          }),
        });
        const issues = person.issues.flatMap((name) => {
          const issueId = issueIds.get(name);
          return issueId === undefined ? [] : [issueId];
        });
        await tx.userIssue.createMany({
          data: issues.map((issueId) => ({ profileId: row.profileId, issueId })),
        });
        await publishChange(tx, {
          kind: 'profile',
          profile_id: row.profileId,
          user_id: row.userId,
          first_name: row.firstName,
          last_name: row.lastName,
          profile_picture: row.profilePicture,
          issue_area_ids: [...new Set(issues)].sort((a, b) => a - b),
        });
      }
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
  return people.length;
}

export async function ensureIssueAreas(prisma: PrismaClient) {
  await prisma.issueArea.createMany({
    data: ISSUE_AREAS.map((name) => ({ issueName: name, issueKey: name.toLowerCase() })),
    skipDuplicates: true,
  });
}

/** The demo people, placed at the organizations the org service has (by name, else by group). */
export function demoPeople(organizations: OrganizationRef[], divisions: DivisionRef[]): DemoPerson[] {
  const random = generator(20_241_105);
  const byName = new Map(organizations.map((o) => [o.organizationName, o]));
  const pool = organizations
    .filter((o) => o.organizationName !== PRODUCT_ORGANIZATION)
    .sort((a, b) => a.organizationId - b.organizationId);
  const activeDivisions = (organization: OrganizationRef) =>
    divisions.filter((d) => d.organizationId === organization.organizationId && d.activeDivision);
  const find = (name: string, group: string) =>
    byName.get(name) ?? pool.find((o) => o.groupType === group) ?? pool[0];
  const taken = new Set<string>();
  let counter = 0;

  const person = (
    firstName: string,
    lastName: string,
    jobs: DemoJob[],
    options: Partial<
      Pick<DemoPerson, 'owner' | 'workEmail' | 'lobbyFilerId' | 'pronouns' | 'issues' | 'hasPicture'>
    > = {},
  ): DemoPerson => {
    taken.add(`${firstName} ${lastName}`);
    counter += 1;
    const handle = `${slug(firstName)}${slug(lastName)}`;
    const current = jobs[0];
    const issues = options.issues ?? random.some(ISSUE_AREAS, random.int(2, 5));
    const base = {
      firstName,
      lastName,
      jobs,
      issues,
    };
    return {
      ...base,
      workEmail:
        options.workEmail ??
        `${slug(firstName)}.${slug(lastName)}@${current ? domainOf(current.organization) : 'example.org'}`,
      owner: options.owner ?? 'fictional',
      lobbyFilerId: options.lobbyFilerId ?? null,
      pronouns:
        options.pronouns !== undefined
          ? options.pronouns
          : random.chance(0.7)
            ? random.pick(['She/Her', 'He/Him', 'They/Them'])
            : null,
      hasPicture: options.hasPicture ?? random.chance(0.88),
      birthday: random.chance(0.4)
        ? `${random.int(1962, 1998)}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`
        : null,
      userBio: random.chance(0.85) ? bioOf(random, base) : null,
      extras: {
        otherPhone: random.chance(0.95) ? phone('916', counter) : null,
        mobilePhone: random.chance(0.5) ? phone('279', counter) : null,
        personalEmail: random.chance(0.2) ? `${handle}.demo@example.com` : null,
        ...socialsOf(random, handle),
      },
    };
  };

  const job = (
    organization: OrganizationRef | undefined,
    title: string,
    startDate: string,
    endDate: string | null = null,
    division: DivisionRef | null = null,
  ): DemoJob[] => (organization ? [{ organization, division, title, startDate, endDate }] : []);

  const divisionNamed = (organization: OrganizationRef | undefined, name: string) =>
    (organization &&
      divisions.find((d) => d.organizationId === organization.organizationId && d.divisionName === name)) ??
    null;

  const senator = find('Office of Senator Elena Marquez', 'Legislature');
  const assembly = find('Office of Assemblymember David Okafor', 'Legislature');
  const governor = find('Office of the Governor', "Governor's Office");
  const water = find('Department of Water Stewardship', 'Agencies');

  const people: DemoPerson[] = [
    person(
      'Camila',
      'Reyes',
      job(byName.get(PRODUCT_ORGANIZATION) ?? find('', 'Other'), 'Member Concierge', '2023-01-01'),
      {
        owner: { account: 'concierge' },
        workEmail: DEMO_ACCOUNT_EMAILS.concierge,
        hasPicture: true,
        pronouns: 'She/Her',
        issues: ['Government Transparency', 'Technology and Privacy', 'Local Government'],
      },
    ),
    person(
      'Marcus',
      'Chen',
      [
        ...job(senator, 'Legislative Director', '2021-02-01'),
        ...job(assembly, 'Legislative Aide', '2017-09-01', '2021-01-01'),
      ],
      {
        owner: { account: 'member' },
        workEmail: DEMO_ACCOUNT_EMAILS.member,
        hasPicture: true,
        pronouns: 'He/Him',
        issues: ['Housing', 'Transportation', 'Budget and Taxation'],
      },
    ),
    person(
      NEWBIE_MATCH.firstName,
      NEWBIE_MATCH.lastName,
      job(
        water,
        'Policy Analyst',
        '2022-06-01',
        null,
        divisionNamed(water, 'Groundwater Management Division'),
      ),
      {
        owner: 'unclaimed',
        workEmail: NEWBIE_MATCH.workEmail,
        issues: ['Water', 'Climate Change'],
        hasPicture: true,
      },
    ),
    // Elected officials: the titles the directory's Elected Officials filter selects.
    person('Elena', 'Marquez', job(senator, 'Senator', '2018-12-01'), {
      issues: ['Housing', 'Water', 'Health Care'],
    }),
    person('David', 'Okafor', job(assembly, 'Assemblymember', '2020-12-01'), {
      issues: ['Transportation', 'K-12 Education', 'Small Business'],
    }),
    person('Helena', 'Voss', job(governor, 'Governor', '2023-01-01'), {
      issues: ['Budget and Taxation', 'Climate Change', 'Homelessness'],
    }),
    person('Raymond', 'Castillo', job(governor, 'Lt. Governor', '2023-01-01'), {
      issues: ['Higher Education', 'Economic Development'],
    }),
    person(
      'Adrienne',
      'Kowalski',
      job(find('Senate Office of Policy Research', 'Legislature'), 'President pro Tempore', '2022-02-01'),
      {
        issues: ['Budget and Taxation', 'Labor and Employment'],
      },
    ),
    person(
      'Julian',
      'Mbeki',
      job(
        find('Assembly Committee on Housing and Community Development', 'Legislature'),
        'Speaker',
        '2021-12-01',
      ),
      { issues: ['Housing', 'Homelessness', 'Public Safety'] },
    ),
  ];

  let generated = 0;
  for (const organization of pool) {
    const titles = TITLES[organization.groupType] ?? (TITLES.Other as string[]);
    const count = PEOPLE_PER_ORGANIZATION[organization.groupType] ?? 1;
    for (let i = 0; i < count; i += 1) {
      let firstName = random.pick(FIRST_NAMES);
      let lastName = random.pick(LAST_NAMES);
      while (taken.has(`${firstName} ${lastName}`)) {
        firstName = random.pick(FIRST_NAMES);
        lastName = random.pick(LAST_NAMES);
      }
      const title = i === 0 ? (titles[0] as string) : random.pick(titles.slice(1));
      const startYear = random.int(2014, 2024);
      const offices = activeDivisions(organization);
      const division = offices.length > 0 && random.chance(0.5) ? random.pick(offices) : null;
      const jobs = job(organization, title, day(startYear, random.int(1, 12)), null, division);
      // Past positions, each ending when the next began.
      let until = startYear;
      const others = pool.filter((o) => o.organizationId !== organization.organizationId);
      for (let past = others.length > 0 && random.chance(0.6) ? random.int(1, 2) : 0; past > 0; past -= 1) {
        const elsewhere = random.pick(others);
        const from = until - random.int(2, 6);
        const pastTitles = TITLES[elsewhere.groupType] ?? (TITLES.Other as string[]);
        jobs.push(
          ...job(elsewhere, random.pick(pastTitles.slice(1)), day(from, random.int(1, 12)), day(until, 1)),
        );
        until = from;
      }
      generated += 1;
      people.push(
        person(firstName, lastName, jobs, {
          owner: generated % UNCLAIMED_EVERY === 0 ? 'unclaimed' : 'fictional',
          lobbyFilerId:
            organization.groupType === 'Lobbyists'
              ? `13${String(10_000 + generated).padStart(5, '0')}`
              : null,
        }),
      );
    }
  }
  return people;
}
