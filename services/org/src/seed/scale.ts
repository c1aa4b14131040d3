// `npm run seed:orgs -- --count 10000`: fills a database with a realistic generated set of fictional
// organizations (every group, addresses, phones, websites, Cal-Access ids where they apply, divisions for
// agencies and offices) in batch inserts, then brings the search index in step, for the list benchmark.
// Reads the org service's configuration (DATABASE_URL defaults to the embedded PostgreSQL of `npm start`).
import { parseArgs } from 'node:util';
import { foldName, hasCalAccessId } from '@rotunda/rules';
import { createLogger, loadConfigOrExit, migrate } from '@rotunda/service-kit';
import type { Prisma } from '../../generated/prisma/client.ts';
import { orgConfigSchema } from '../config.ts';
import { GROUPS, type GroupName } from '../domain/organization.ts';
import { wireOrg } from '../wiring.ts';
import { SEED_ACTOR } from './demo-organizations.ts';

const PLACES = [
  'Sierra',
  'Delta',
  'Redwood',
  'Capitol',
  'Golden State',
  'Pacific',
  'Central Valley',
  'Coastal',
  'Foothill',
  'Bay Area',
  'Inland',
  'North State',
  'River City',
  'High Desert',
  'Gold Country',
  'Sacramento Valley',
  'San Joaquin',
  'Tahoe Basin',
  'Mother Lode',
  'Shasta',
  'Monterey Bay',
  'Central Coast',
  'Emerald',
  'Sunrise',
  'Twin Rivers',
  'American River',
  'Yolo',
  'Placer',
  'Feather River',
  'Cascade',
];
const TOPICS = [
  'Water',
  'Energy',
  'Health Care',
  'Housing',
  'Transit',
  'Education',
  'Agriculture',
  'Labor',
  'Technology',
  'Insurance',
  'Wildlife',
  'Forestry',
  'Broadband',
  'Retail',
  'Tourism',
  'Manufacturing',
  'Child Care',
  'Public Safety',
  'Clean Air',
  'Small Business',
  'Veterans',
  'Nursing',
  'Pharmacy',
  'Trucking',
  'Dairy',
  'Wine Growers',
  'Credit Union',
  'Biotech',
  'Recycling',
  'Parks',
];
const FIRST = [
  'Maria',
  'James',
  'Aiko',
  'Daniel',
  'Priya',
  'Samuel',
  'Lucia',
  'Marcus',
  'Elena',
  'Grace',
  'Tomas',
  'Nadia',
  'Owen',
  'Farah',
  'Victor',
  'Hannah',
  'Ricardo',
  'Mei',
  'Andre',
  'Leah',
];
const LAST = [
  'Alvarez',
  'Bennett',
  'Castillo',
  'Dunmore',
  'Ellison',
  'Fujimoto',
  'Garrity',
  'Holloway',
  'Iverson',
  'Jaramillo',
  'Kwan',
  'Lindqvist',
  'Mendoza',
  'Nakamura',
  'Okafor',
  'Pellegrini',
  'Quintana',
  'Ramsey',
  'Sato',
  'Thornton',
  'Underwood',
  'Vasquez',
  'Whitaker',
  'Xiong',
  'Yamada',
  'Zamora',
  'Ashford',
  'Brennan',
  'Calloway',
  'Delacroix',
];
const STREETS = [
  'K Street',
  'L Street',
  'J Street',
  'N Street',
  'O Street',
  'P Street',
  'Capitol Mall',
  '9th Street',
  '10th Street',
  '11th Street',
  'Capitol Avenue',
  'Howe Avenue',
  'Watt Avenue',
  'Fair Oaks Boulevard',
  'Folsom Boulevard',
  'El Camino Avenue',
  'Arden Way',
  'Stockton Boulevard',
  'Broadway',
  'Freeport Boulevard',
];
const CITIES = [
  { city: 'Sacramento', zip: '95814' },
  { city: 'Sacramento', zip: '95811' },
  { city: 'Sacramento', zip: '95816' },
  { city: 'Sacramento', zip: '95825' },
  { city: 'West Sacramento', zip: '95691' },
  { city: 'Elk Grove', zip: '95758' },
  { city: 'Rancho Cordova', zip: '95670' },
  { city: 'Roseville', zip: '95678' },
  { city: 'Davis', zip: '95616' },
  { city: 'Folsom', zip: '95630' },
];
/** How the generated organizations spread over the groups, roughly as a capitol's directory does. */
const GROUP_WEIGHTS: [GroupName, number][] = [
  ['Associations', 24],
  ['Agencies', 16],
  ["Governor's Office", 2],
  ['Legislature', 12],
  ['Lobbyists', 20],
  ['Unions', 10],
  ['Campaigns', 6],
  ['Other', 10],
];
const DIVISION_TYPES = ['Office', 'Division', 'Board', 'Bureau'];

/** mulberry32: the same data set for the same seed, so benchmark runs compare. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, pick, int };
}

function nameFor(group: GroupName, r: ReturnType<typeof random>): string {
  const place = r.pick(PLACES);
  const topic = r.pick(TOPICS);
  let other = r.pick(TOPICS);
  while (other === topic) other = r.pick(TOPICS);
  const person = `${r.pick(FIRST)} ${r.pick(LAST)}`;
  switch (group) {
    case 'Associations':
      return `${place} ${topic} ${r.pick(['Association', 'Alliance', 'Council', 'Coalition', 'Federation'])}`;
    case 'Agencies':
      return r.pick([
        `Department of ${topic} and ${other}`,
        `${place} ${topic} Board`,
        `${place} Regional ${topic} Authority`,
        `${place} ${topic} Commission`,
      ]);
    case "Governor's Office":
      return r.pick([`Governor's Office of ${topic} and ${other}`, `Governor's ${place} ${topic} Council`]);
    case 'Legislature':
      return r.pick([
        `Office of Senator ${person}`,
        `Office of Assemblymember ${person}`,
        `Assembly Committee on ${topic}`,
        `Senate Committee on ${topic}`,
      ]);
    case 'Lobbyists':
      return r.pick([
        `${r.pick(LAST)} & ${r.pick(LAST)} ${r.pick(['Advocates', 'Partners', 'Associates'])}`,
        `${place} ${r.pick(['Strategies', 'Public Affairs', 'Advocacy Group', 'Policy Partners'])}`,
        `${r.pick(LAST)} ${r.pick(LAST)} Government Relations`,
      ]);
    case 'Unions':
      return r.pick([
        `${place} ${topic} Workers Local ${r.int(100, 9999)}`,
        `${topic} Employees Guild of ${place}`,
      ]);
    case 'Campaigns':
      return r.pick([
        `Yes on ${topic} Measure ${r.int(1, 99)}`,
        `Committee for ${place} ${topic}`,
        `Friends of ${person} for ${r.pick(['Senate', 'Assembly'])} ${r.pick([2026, 2028])}`,
      ]);
    default:
      return `${place} ${topic} ${r.pick(['Policy Institute', 'Research Center', 'Foundation', 'Network'])}`;
  }
}

const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '');
const phoneOf = (r: ReturnType<typeof random>) => `(916) 555-01${String(r.int(0, 99)).padStart(2, '0')}`;

const { values } = parseArgs({
  options: { count: { type: 'string', default: '10000' }, seed: { type: 'string', default: '2024' } },
});
const count = Number(values.count);
if (!Number.isSafeInteger(count) || count < 1 || count > 1_000_000) {
  process.stderr.write('seed:orgs: --count must be a whole number from 1 to 1000000\n');
  process.exit(64);
}

const config = loadConfigOrExit(orgConfigSchema, 'seed:orgs');
const logger = createLogger('seed-orgs', config.LOG_LEVEL);
const started = performance.now();
await migrate({
  databaseUrl: config.DATABASE_URL,
  schema: config.DATABASE_SCHEMA,
  migrationsDir: new URL('../../prisma/migrations', import.meta.url).pathname,
  logger,
});
// Straight on the Postgres index: the running replicas hear of what the seed indexes.
const { prisma, repository, org, close } = await wireOrg({ ...config, SEARCH_IN_MEMORY: false }, logger);
try {
  await repository.ensureGroups(GROUPS);
  const r = random(Number(values.seed) || 1);
  const taken = new Set(
    (await prisma.organization.findMany({ select: { organizationName: true } })).map((row) =>
      row.organizationName.toLowerCase(),
    ),
  );
  const totalWeight = GROUP_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
  const groupId = new Map<string, number>(GROUPS.map((group) => [group.groupName, group.groupId]));
  const pickGroup = (): GroupName => {
    let roll = r.next() * totalWeight;
    for (const [group, weight] of GROUP_WEIGHTS) {
      roll -= weight;
      if (roll < 0) return group;
    }
    return 'Other';
  };

  const BATCH = 1000;
  let made = 0;
  let divisions = 0;
  while (made < count) {
    const batch: Prisma.OrganizationCreateManyInput[] = [];
    const groups: GroupName[] = [];
    for (let i = 0; i < Math.min(BATCH, count - made); i++) {
      const group = pickGroup();
      let name = nameFor(group, r);
      // Fresh draws keep names natural; only a name still taken after ten gets a number.
      for (let tries = 0; tries < 10 && taken.has(name.toLowerCase()); tries++) name = nameFor(group, r);
      for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${name.replace(/ \d+$/, '')} ${n}`;
      taken.add(name.toLowerCase());
      const place = r.pick(CITIES);
      const social = slugOf(name).slice(0, 40);
      batch.push({
        organizationName: name,
        groupId: groupId.get(group) as number,
        streetAddress: `${r.int(100, 3999)} ${r.pick(STREETS)}`,
        suiteNumber: r.next() < 0.6 ? `Suite ${r.int(1, 19) * 100 + r.int(0, 50)}` : null,
        city: place.city,
        state: 'CA',
        zipCode: place.zip,
        mainPhone: phoneOf(r),
        website: `https://${social}.example.org`,
        websiteConfirmedBy: SEED_ACTOR,
        websiteConfirmedAt: new Date(),
        nameKey: foldName(name),
        lobbyFilerId: hasCalAccessId(group) ? String(r.int(9_200_000, 9_999_999)) : null,
        linkedinUrl: r.next() < 0.5 ? `https://www.linkedin.com/company/${social}-demo` : null,
        facebookUrl: r.next() < 0.3 ? `https://www.facebook.com/${social}demo` : null,
        twitterUrl: r.next() < 0.3 ? `https://x.com/${social.slice(0, 12)}demo` : null,
      });
      groups.push(group);
    }
    const created = await prisma.organization.createManyAndReturn({
      data: batch,
      select: { organizationId: true, streetAddress: true, city: true, zipCode: true },
    });
    const divisionRows: Prisma.DivisionCreateManyInput[] = [];
    created.forEach((row, i) => {
      const group = groups[i];
      if (group !== 'Agencies' && group !== "Governor's Office" && group !== 'Legislature') return;
      const names = new Set<string>();
      for (let d = r.int(1, 4); d > 0; d--) {
        const type = group === 'Legislature' ? 'District Office' : r.pick(DIVISION_TYPES);
        const name =
          type === 'District Office' ? `${r.pick(CITIES).city} District Office` : `${r.pick(TOPICS)} ${type}`;
        if (names.has(name)) continue;
        names.add(name);
        divisionRows.push({
          organizationId: row.organizationId,
          divisionName: name,
          divisionType: type,
          activeDivision: r.next() > 0.05,
          streetAddress: row.streetAddress,
          city: row.city,
          state: 'CA',
          zipCode: row.zipCode,
          divisionPhone: phoneOf(r),
        });
      }
    });
    if (divisionRows.length > 0)
      divisions += (await prisma.division.createMany({ data: divisionRows })).count;
    made += created.length;
    process.stdout.write(`  … ${made} of ${count} organizations\r`);
  }
  process.stdout.write('\n');
  const inserted = performance.now();
  const indexed = await org.syncSearchIndex();
  const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
  process.stdout.write(
    `seed:orgs: added ${made} organizations and ${divisions} divisions in ${seconds(started, inserted)} s, ` +
      `indexed ${indexed} in ${seconds(inserted, performance.now())} s\n`,
  );
} finally {
  await close();
}
