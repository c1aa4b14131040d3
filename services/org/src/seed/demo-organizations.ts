// Demo organizations for the one-machine default (ADR 0008): every group, agencies and offices
// with divisions of several types, Cal-Access ids where they apply, Sacramento-area addresses, (916) 555-01xx
// phones (the range kept for fiction), websites on example.org, a few socials, generated logos, and the
// product's own organization, hidden from the list. Every name is fictional.
import { mediaUrl, type ObjectStore, objectKey } from '@rotunda/images';
import { emptyOrganizationFields } from '../domain/org-service.ts';
import { GROUPS, type GroupName } from '../domain/organization.ts';
import type { OrganizationRepository } from '../domain/ports.ts';
import { renderLogo } from './logo.ts';

interface DemoDivision {
  name: string;
  type: string;
  street?: string;
  suite?: string;
  city?: string;
  zip?: string;
  phone?: string;
  active?: boolean;
}

interface DemoOrganization {
  name: string;
  group: GroupName;
  slug: string;
  street: string;
  suite?: string;
  city: string;
  zip: string;
  phone: string;
  calAccess?: string;
  socials?: (
    | 'linkedin'
    | 'facebook'
    | 'youtube'
    | 'threads'
    | 'twitter'
    | 'instagram'
    | 'tiktok'
    | 'bluesky'
  )[];
  divisions?: DemoDivision[];
  hidden?: boolean;
  logo?: boolean;
}

export const PRODUCT_ORGANIZATION = 'Rotunda';
/** Who confirmed the seeded websites: the operator's own data, as the migration calls it. */
export const SEED_ACTOR = 'seed';

const phone = (n: number) => `(916) 555-${String(100 + n).padStart(4, '0')}`;

export const DEMO_ORGANIZATIONS: readonly DemoOrganization[] = [
  // Associations
  {
    name: 'Sierra Valley Growers Association',
    group: 'Associations',
    slug: 'sierravalleygrowers',
    street: '1215 K Street',
    suite: 'Suite 1400',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(1),
    calAccess: '9100101',
    socials: ['linkedin', 'facebook', 'twitter'],
    divisions: [{ name: 'Government Affairs', type: 'Office', phone: phone(41) }],
  },
  {
    name: 'Pacific Hospital Council',
    group: 'Associations',
    slug: 'pacifichospitalcouncil',
    street: '1107 9th Street',
    suite: 'Suite 800',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(2),
    calAccess: '9100102',
    socials: ['linkedin', 'youtube'],
  },
  {
    name: 'Golden State Realtors Alliance',
    group: 'Associations',
    slug: 'gsrealtorsalliance',
    street: '925 L Street',
    suite: 'Suite 250',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(3),
    calAccess: '9100103',
    socials: ['facebook', 'instagram'],
  },
  {
    name: 'Delta Counties Association',
    group: 'Associations',
    slug: 'deltacounties',
    street: '1100 K Street',
    suite: 'Suite 101',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(4),
    calAccess: '9100104',
  },
  {
    name: 'Capitol Retailers Association',
    group: 'Associations',
    slug: 'capitolretailers',
    street: '1121 L Street',
    suite: 'Suite 607',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(5),
    socials: ['linkedin'],
  },
  {
    name: 'Foothill Community Colleges Association',
    group: 'Associations',
    slug: 'foothillcolleges',
    street: '2150 River Plaza Drive',
    suite: 'Suite 300',
    city: 'Sacramento',
    zip: '95833',
    phone: phone(6),
  },
  {
    name: 'Northern Valley Builders Exchange',
    group: 'Associations',
    slug: 'nvbuildersexchange',
    street: '1590 Drew Avenue',
    city: 'Davis',
    zip: '95618',
    phone: phone(7),
    calAccess: '9100107',
    socials: ['linkedin', 'facebook'],
  },
  // Agencies
  {
    name: 'Department of Water Stewardship',
    group: 'Agencies',
    slug: 'waterstewardship',
    street: '715 P Street',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(8),
    socials: ['linkedin', 'youtube', 'twitter', 'bluesky'],
    divisions: [
      { name: 'Office of the Director', type: 'Office', suite: 'Floor 16', phone: phone(42) },
      { name: 'Groundwater Management Division', type: 'Division', suite: 'Floor 9', phone: phone(43) },
      { name: 'Dam Safety Division', type: 'Division', suite: 'Floor 7', phone: phone(44) },
      {
        name: 'Central Valley Flood Safety Board',
        type: 'Board',
        street: '3310 El Camino Avenue',
        suite: 'Room 170',
        city: 'Sacramento',
        zip: '95821',
        phone: phone(45),
      },
      { name: 'Office of Tribal Affairs', type: 'Office', suite: 'Floor 16', phone: phone(46) },
      { name: 'Drought Response Unit', type: 'Division', active: false },
    ],
  },
  {
    name: 'State Transit Development Agency',
    group: 'Agencies',
    slug: 'transitdevelopment',
    street: '1120 N Street',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(9),
    socials: ['linkedin', 'facebook', 'instagram'],
    divisions: [
      { name: 'Division of Rail and Mass Transit', type: 'Division', suite: 'MS 39', phone: phone(47) },
      { name: 'Office of Active Transportation', type: 'Office', suite: 'MS 1', phone: phone(48) },
      { name: 'Transit Safety Board', type: 'Board', suite: 'MS 52', phone: phone(49) },
    ],
  },
  {
    name: 'Department of Wildfire Resilience',
    group: 'Agencies',
    slug: 'wildfireresilience',
    street: '1416 9th Street',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(10),
    socials: ['twitter', 'youtube', 'threads'],
    divisions: [
      { name: 'Fire Prevention Division', type: 'Division', phone: phone(50) },
      {
        name: 'Office of the State Fire Planner',
        type: 'Office',
        street: '2251 Harvard Street',
        suite: 'Suite 400',
        city: 'Sacramento',
        zip: '95815',
        phone: phone(51),
      },
      { name: 'Board of Forest Stewardship', type: 'Board', phone: phone(52) },
    ],
  },
  {
    name: 'Office of Digital Services',
    group: 'Agencies',
    slug: 'digitalservices',
    street: '10860 Gold Center Drive',
    city: 'Rancho Cordova',
    zip: '95670',
    phone: phone(11),
    socials: ['linkedin', 'bluesky'],
    divisions: [
      { name: 'Security Operations Division', type: 'Division', phone: phone(53) },
      { name: 'Office of Data and Innovation', type: 'Office', phone: phone(54) },
    ],
  },
  {
    name: 'Coastal Lands Commission',
    group: 'Agencies',
    slug: 'coastallands',
    street: '100 Howe Avenue',
    suite: 'Suite 100-South',
    city: 'Sacramento',
    zip: '95825',
    phone: phone(12),
  },
  {
    name: 'Department of Consumer Licensing',
    group: 'Agencies',
    slug: 'consumerlicensing',
    street: '1625 North Market Boulevard',
    city: 'Sacramento',
    zip: '95834',
    phone: phone(13),
    socials: ['facebook', 'twitter'],
    divisions: [
      { name: 'Board of Barbering and Cosmetology', type: 'Board', phone: phone(55) },
      { name: 'Contractors Licensing Board', type: 'Board', phone: phone(56) },
      { name: 'Bureau of Household Goods and Services', type: 'Bureau', phone: phone(57) },
      { name: 'Division of Investigation', type: 'Division', phone: phone(58) },
    ],
  },
  // Governor's Office
  {
    name: 'Office of the Governor',
    group: "Governor's Office",
    slug: 'governor',
    street: '1021 O Street',
    suite: 'Suite 9000',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(14),
    socials: ['twitter', 'instagram', 'youtube', 'threads', 'tiktok'],
    divisions: [
      { name: 'Office of Legislative Affairs', type: 'Office', phone: phone(59) },
      { name: 'Appointments Unit', type: 'Division', phone: phone(60) },
      { name: 'Office of Constituent Affairs', type: 'Office', phone: phone(61) },
    ],
  },
  {
    name: "Governor's Office of Planning and Innovation",
    group: "Governor's Office",
    slug: 'planninginnovation',
    street: '1400 10th Street',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(15),
    socials: ['linkedin'],
  },
  // Legislature
  {
    name: 'Office of Senator Elena Marquez',
    group: 'Legislature',
    slug: 'senatormarquez',
    street: '1021 O Street',
    suite: 'Room 7310',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(16),
    socials: ['facebook', 'twitter', 'instagram'],
    divisions: [
      {
        name: 'Elk Grove District Office',
        type: 'District Office',
        street: '9250 Laguna Springs Drive',
        suite: 'Suite 205',
        city: 'Elk Grove',
        zip: '95758',
        phone: phone(62),
      },
      {
        name: 'Folsom District Office',
        type: 'District Office',
        street: '50 Natoma Street',
        suite: 'Suite 120',
        city: 'Folsom',
        zip: '95630',
        phone: phone(63),
      },
    ],
  },
  {
    name: 'Office of Assemblymember David Okafor',
    group: 'Legislature',
    slug: 'asmokafor',
    street: '1021 O Street',
    suite: 'Room 5620',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(17),
    socials: ['facebook', 'instagram'],
    divisions: [
      {
        name: 'Roseville District Office',
        type: 'District Office',
        street: '311 Vernon Street',
        suite: 'Suite 2',
        city: 'Roseville',
        zip: '95678',
        phone: phone(64),
      },
    ],
  },
  {
    name: 'Assembly Committee on Housing and Community Development',
    group: 'Legislature',
    slug: 'asmhousingcommittee',
    street: '1020 N Street',
    suite: 'Room 156',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(18),
  },
  {
    name: 'Senate Office of Policy Research',
    group: 'Legislature',
    slug: 'senatepolicyresearch',
    street: '1020 N Street',
    suite: 'Suite 200',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(19),
  },
  // Lobbyists
  {
    name: 'Capitol Bridge Advocates',
    group: 'Lobbyists',
    slug: 'capitolbridge',
    street: '1201 K Street',
    suite: 'Suite 1050',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(20),
    calAccess: '9100120',
    socials: ['linkedin'],
  },
  {
    name: 'Ridgeway & Sato Government Relations',
    group: 'Lobbyists',
    slug: 'ridgewaysato',
    street: '1415 L Street',
    suite: 'Suite 1200',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(21),
    calAccess: '9100121',
    socials: ['linkedin', 'twitter'],
  },
  {
    name: 'Tower Bridge Strategies',
    group: 'Lobbyists',
    slug: 'towerbridgestrategies',
    street: '400 Capitol Mall',
    suite: 'Suite 1700',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(22),
    calAccess: '9100122',
  },
  {
    name: 'Meridian Public Affairs',
    group: 'Lobbyists',
    slug: 'meridianpublicaffairs',
    street: '980 9th Street',
    suite: 'Suite 1600',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(23),
    calAccess: '9100123',
    socials: ['linkedin', 'bluesky'],
  },
  {
    name: 'Redwood Policy Partners',
    group: 'Lobbyists',
    slug: 'redwoodpolicy',
    street: '1325 J Street',
    suite: 'Suite 1550',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(24),
    calAccess: '9100124',
  },
  {
    name: 'Sutter Street Consulting',
    group: 'Lobbyists',
    slug: 'sutterstreet',
    street: '705 Sutter Street',
    city: 'Folsom',
    zip: '95630',
    phone: phone(25),
    calAccess: '9100125',
    socials: ['facebook'],
  },
  // Unions
  {
    name: 'Golden State Nurses Union',
    group: 'Unions',
    slug: 'gsnurses',
    street: '2000 Franklin Boulevard',
    city: 'Sacramento',
    zip: '95811',
    phone: phone(26),
    calAccess: '9100126',
    socials: ['facebook', 'twitter', 'instagram', 'tiktok'],
    divisions: [{ name: 'Legislative Department', type: 'Office', phone: phone(65) }],
  },
  {
    name: 'State Engineers Guild',
    group: 'Unions',
    slug: 'engineersguild',
    street: '660 J Street',
    suite: 'Suite 445',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(27),
    calAccess: '9100127',
    socials: ['linkedin'],
  },
  {
    name: 'Capitol Transit Workers Local 4417',
    group: 'Unions',
    slug: 'transitworkers4417',
    street: '3300 Watt Avenue',
    suite: 'Suite 110',
    city: 'Sacramento',
    zip: '95821',
    phone: phone(28),
    calAccess: '9100128',
  },
  {
    name: 'Valley Teachers Federation',
    group: 'Unions',
    slug: 'valleyteachers',
    street: '1800 W Capitol Avenue',
    city: 'West Sacramento',
    zip: '95691',
    phone: phone(29),
    socials: ['facebook', 'instagram'],
  },
  {
    name: 'Public Safety Dispatchers Union',
    group: 'Unions',
    slug: 'dispatchersunion',
    street: '8880 Cal Center Drive',
    suite: 'Suite 400',
    city: 'Sacramento',
    zip: '95826',
    phone: phone(30),
    calAccess: '9100130',
  },
  // Campaigns
  {
    name: 'Yes on Clean Water Bond Committee',
    group: 'Campaigns',
    slug: 'yescleanwater',
    street: '1808 J Street',
    city: 'Sacramento',
    zip: '95811',
    phone: phone(31),
    socials: ['facebook', 'instagram', 'tiktok'],
  },
  {
    name: 'Friends of Maria Delgado for Assembly 2026',
    group: 'Campaigns',
    slug: 'delgado2026',
    street: '2730 Capitol Avenue',
    city: 'Sacramento',
    zip: '95816',
    phone: phone(32),
    socials: ['facebook', 'threads'],
  },
  {
    name: 'Committee for Safer Schools',
    group: 'Campaigns',
    slug: 'saferschools',
    street: '455 Capitol Mall',
    suite: 'Suite 350',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(33),
  },
  // Other
  {
    name: 'River City Policy Institute',
    group: 'Other',
    slug: 'rivercitypolicy',
    street: '1017 L Street',
    suite: 'Suite 190',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(34),
    socials: ['linkedin', 'youtube', 'bluesky'],
  },
  {
    name: 'Delta Policy Lab',
    group: 'Other',
    slug: 'deltapolicylab',
    street: '1 Shields Avenue',
    city: 'Davis',
    zip: '95616',
    phone: phone(35),
  },
  {
    name: 'Two Rivers Legal Aid',
    group: 'Other',
    slug: 'tworiverslegalaid',
    street: '515 12th Street',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(36),
    socials: ['facebook'],
  },
  {
    name: 'Golden Poppy Research Center',
    group: 'Other',
    slug: 'goldenpoppyresearch',
    street: '2020 West El Camino Avenue',
    suite: 'Suite 700',
    city: 'Sacramento',
    zip: '95833',
    phone: phone(37),
  },
  {
    name: 'Capitol Fellows Alumni Network',
    group: 'Other',
    slug: 'capitolfellowsalumni',
    street: '6000 J Street',
    city: 'Sacramento',
    zip: '95819',
    phone: phone(38),
    socials: ['linkedin', 'instagram'],
    // One without a logo, as real data has: the list shows its placeholder.
    logo: false,
  },
  {
    name: PRODUCT_ORGANIZATION,
    group: 'Other',
    slug: 'rotunda',
    street: '1000 Capitol Mall',
    city: 'Sacramento',
    zip: '95814',
    phone: phone(39),
    hidden: true,
  },
];

const SOCIAL_URL = {
  linkedin: (slug: string) => ['linkedinUrl', `https://www.linkedin.com/company/${slug}-demo`],
  facebook: (slug: string) => ['facebookUrl', `https://www.facebook.com/${slug}demo`],
  youtube: (slug: string) => ['youtubeUrl', `https://www.youtube.com/@${slug}demo`],
  threads: (slug: string) => ['threadsUrl', `https://www.threads.net/@${slug}demo`],
  twitter: (slug: string) => ['twitterUrl', `https://x.com/${slug}demo`],
  instagram: (slug: string) => ['instagramUrl', `https://www.instagram.com/${slug}demo`],
  tiktok: (slug: string) => ['tiktokUrl', `https://www.tiktok.com/@${slug}demo`],
  bluesky: (slug: string) => ['blueskyUrl', `https://bsky.app/profile/${slug}.example.org`],
} as const;

export interface SeedDependencies {
  repository: OrganizationRepository;
  store: Pick<ObjectStore, 'put'>;
  /** Draws a logo; tests pass a cheaper one. */
  logo?: (name: string) => Promise<Buffer>;
}

/** Seeds the demo organizations when the service has none yet; answers how many it created. */
export async function seedDemoOrganizations({
  repository,
  store,
  logo = (name) => renderLogo(name),
}: SeedDependencies): Promise<number> {
  if ((await repository.count()) > 0) return 0;
  const groupIds = new Map<string, number>(GROUPS.map((group) => [group.groupName, group.groupId]));
  let created = 0;
  for (const demo of DEMO_ORGANIZATIONS) {
    let logoUrl: string | null = null;
    if (demo.logo !== false) {
      const key = objectKey('logos', 'png');
      await store.put(key, await logo(demo.name), 'image/png');
      logoUrl = mediaUrl(key);
    }
    const socials = Object.fromEntries((demo.socials ?? []).map((network) => SOCIAL_URL[network](demo.slug)));
    const result = await repository.addUnlessNamed({
      ...emptyOrganizationFields(),
      ...socials,
      organizationName: demo.name,
      groupId: groupIds.get(demo.group) as number,
      streetAddress: demo.street,
      suiteNumber: demo.suite ?? null,
      city: demo.city,
      state: 'CA',
      zipCode: demo.zip,
      mainPhone: demo.phone,
      website: `https://${demo.slug}.example.org`,
      websiteConfirmedBy: SEED_ACTOR,
      lobbyFilerId: demo.calAccess ?? null,
      logo: logoUrl,
      hidden: demo.hidden ?? false,
    });
    if (result.created) created += 1;
    for (const division of demo.divisions ?? []) {
      await repository.addDivisionUnlessNamed({
        organizationId: result.organization.organizationId,
        divisionName: division.name,
        divisionType: division.type,
        activeDivision: division.active ?? true,
        // A division without its own address sits at its organization's.
        streetAddress: division.street ?? demo.street,
        suiteNumber: division.suite ?? (division.street ? null : (demo.suite ?? null)),
        city: division.city ?? demo.city,
        state: 'CA',
        zipCode: division.zip ?? demo.zip,
        divisionPhone: division.phone ?? null,
        website: `https://${demo.slug}.example.org/${division.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
      });
    }
  }
  return created;
}
