// `npm run seed:scale -w @rotunda/profile-service -- --profiles 100000` (the root `npm run seed:scale` runs it
// after the organizations' seed): fills the profile schema, up to the given total, with a realistic generated
// set of fictional people for the directory benchmark: names, work emails and phones, pictures reused from the
// demo's portraits for most, a current job (a few are between jobs) at the org service's organizations with a
// title fitting its group (elected officials in the Legislature), a division for some, past jobs, and issue
// areas; then brings the people index in step. Batch inserts, a fixed random seed: the same command makes the
// same people. Reads the profile service's configuration (DATABASE_URL defaults to the embedded PostgreSQL of
// `npm start`); the org service must answer (ORG_SERVICE_ADDR), since jobs point at its organizations.
import { parseArgs } from 'node:util';
import { createLogger, loadConfigOrExit, migrate } from '@rotunda/service-kit';
import type { Prisma } from '../../generated/prisma/client.ts';
import { profileConfigSchema } from '../config.ts';
import { wireProfile } from '../wiring.ts';
import { ensureIssueAreas, FIRST_NAMES, generator, LAST_NAMES, TITLES } from './demo-profiles.ts';

const BATCH = 1000;
const CITIES = [
  ['Sacramento', '958'],
  ['West Sacramento', '956'],
  ['Elk Grove', '957'],
  ['Davis', '956'],
  ['Folsom', '956'],
  ['Roseville', '956'],
  ['Oakland', '946'],
  ['Los Angeles', '900'],
  ['San Diego', '921'],
  ['Fresno', '937'],
] as const;
const STREETS = ['Capitol Mall', 'K Street', 'L Street', 'O Street', 'P Street', '9th Street', 'J Street'];
const ELECTED = ['Senator', 'Assemblymember'];
const DAY_MS = 86_400_000;

const { values } = parseArgs({
  options: { profiles: { type: 'string', default: '100000' }, seed: { type: 'string', default: '2024' } },
});
const target = Number(values.profiles);
if (!Number.isSafeInteger(target) || target < 1 || target > 2_000_000) {
  process.stderr.write('seed:scale: --profiles must be a whole number from 1 to 2000000\n');
  process.exit(64);
}

const config = loadConfigOrExit(profileConfigSchema, 'seed:scale');
const logger = createLogger('seed-profiles', config.LOG_LEVEL);
const started = performance.now();
await migrate({
  databaseUrl: config.DATABASE_URL,
  schema: config.DATABASE_SCHEMA,
  migrationsDir: new URL('../../prisma/migrations', import.meta.url).pathname,
  logger,
});
// Straight on the Postgres index: the running replicas hear of what the seed indexes.
const { prisma, orgCopy, directory, close } = await wireProfile(
  { ...config, SEARCH_IN_MEMORY: false },
  logger,
);
try {
  const { organizations, divisions } = await orgCopy.copyAll();
  const places = organizations.filter((o) => TITLES[o.groupType]);
  if (places.length === 0) throw new Error('the org service answered no organizations: seed them first');
  const divisionsOf = new Map<number, number[]>();
  for (const d of divisions.filter((d) => d.activeDivision))
    divisionsOf.set(d.organizationId, [...(divisionsOf.get(d.organizationId) ?? []), d.divisionId]);
  await ensureIssueAreas(prisma);
  const issueIds = (await prisma.issueArea.findMany({ select: { issueId: true } })).map((i) => i.issueId);
  const pictures = (
    await prisma.profile.findMany({
      where: { profilePicture: { not: null } },
      distinct: ['profilePicture'],
      select: { profilePicture: true },
      take: 100,
    })
  ).map((p) => p.profilePicture as string);

  const existing = await prisma.profile.count();
  const r = generator(Number(values.seed) + existing);
  const day = (date: number) => new Date(Math.floor(date / DAY_MS) * DAY_MS);
  const now = Date.now();
  const jobAt = (profileId: number, current: boolean, endBefore: number) => {
    const organization = r.pick(places);
    const [city, zip] = r.pick(CITIES);
    const staff = TITLES[organization.groupType] as string[];
    const elected = organization.groupType === 'Legislature' && current && r.chance(0.04);
    const start = endBefore - r.int(1, 9) * 365 * DAY_MS - r.int(0, 364) * DAY_MS;
    const division = divisionsOf.get(organization.organizationId);
    return {
      job: {
        profileId,
        title: elected ? r.pick(ELECTED) : r.pick(staff),
        organizationId: organization.organizationId,
        divisionId: division && r.chance(0.5) ? r.pick(division) : null,
        streetAddress: `${r.int(100, 3999)} ${r.pick(STREETS)}`,
        suiteNumber: r.chance(0.5) ? `Suite ${r.int(1, 19) * 100}` : null,
        city,
        state: 'CA',
        zipCode: `${zip}${String(r.int(0, 99)).padStart(2, '0')}`,
        startDate: day(start),
        endDate: current ? null : day(endBefore),
        currentJob: current,
      } satisfies Prisma.JobExperienceCreateManyInput,
      start,
    };
  };

  let made = 0;
  while (existing + made < target) {
    const size = Math.min(BATCH, target - existing - made);
    const people: Prisma.ProfileCreateManyInput[] = [];
    for (let i = 0; i < size; i++) {
      const n = existing + made + i;
      const firstName = r.pick(FIRST_NAMES);
      const lastName = r.pick(LAST_NAMES);
      people.push({
        firstName,
        lastName,
        workEmail: `${firstName}.${lastName}.${n}@people.example.org`
          .toLowerCase()
          .replace(/[^a-z0-9.@-]/g, ''),
        otherPhone: `(916) 555-${String(n % 10_000).padStart(4, '0')}`,
        profilePicture: pictures.length > 0 && r.chance(0.7) ? r.pick(pictures) : null,
        pronouns: r.pick(['She/Her', 'He/Him', 'They/Them', null, null]),
      });
    }
    const ids = await prisma.profile.createManyAndReturn({ data: people, select: { profileId: true } });
    const jobs: Prisma.JobExperienceCreateManyInput[] = [];
    const issues: Prisma.UserIssueCreateManyInput[] = [];
    for (const { profileId } of ids) {
      let before = now;
      if (r.chance(0.95)) {
        const current = jobAt(profileId, true, now);
        jobs.push(current.job);
        before = current.start;
      }
      for (let past = r.int(0, 2); past > 0; past--) {
        const job = jobAt(profileId, false, before - r.int(0, 90) * DAY_MS);
        jobs.push(job.job);
        before = job.start;
      }
      for (const issueId of r.some(issueIds, r.int(1, 4))) issues.push({ profileId, issueId });
    }
    await prisma.jobExperience.createMany({ data: jobs });
    await prisma.userIssue.createMany({ data: issues });
    made += size;
    if (made % 10_000 === 0) logger.info({ made }, 'profiles written');
  }
  const indexed = await directory.rebuildIfOutOfStep();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `seed:scale: ${existing + made} profiles (${made} added, ${indexed} indexed) in ${seconds} s\n`,
  );
} finally {
  await close();
}
