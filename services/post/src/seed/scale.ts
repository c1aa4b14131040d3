// `npm run seed:scale -w @rotunda/post-service -- --count 200000` (or `--total 200000`: only what is missing):
// fills a database with a realistic generated public square for the feed benchmark: posts of every type over the
// last two years (events with a location, date and times), formatted bodies, comments, likes one per member and
// post with their counts, and reads; then brings the search index in step. Authors are the profile service's
// owned profiles when it answers, plus generated fictional authors (profile ids from 900,000, kept only in the
// read copy) up to --authors, spread over the org service's organizations when it answers. Bodies are composed of
// paragraphs each sanitized once by the service's sanitizer (a body of whole sanitized elements is itself
// sanitized), so 200,000 posts need no 200,000 DOM parses. Reads the post service's configuration (DATABASE_URL
// defaults to the embedded PostgreSQL of `npm start`).
import { parseArgs } from 'node:util';
import { EVENT_POST_TYPE_ID } from '@rotunda/rules';
import { createLogger, loadConfigOrExit, migrate } from '@rotunda/service-kit';
import type { Prisma } from '../../generated/prisma/client.ts';
import { postConfigSchema } from '../config.ts';
import { type Author, EVENT_TYPES, POST_TYPES } from '../domain/post.ts';
import { wirePost } from '../wiring.ts';

const GENERATED_AUTHOR_IDS_FROM = 900_000;
const DAY_MS = 86_400_000;
const BATCH = 1000;

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
  'Kenji',
  'Rosa',
  'Dmitri',
  'Amara',
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
];
const TOPICS = [
  'water storage',
  'wildfire insurance',
  'broadband',
  'transit funding',
  'child care',
  'housing elements',
  'clean fleets',
  'groundwater',
  'community colleges',
  'health workforce',
  'public records',
  'procurement',
  'small business',
  'drought resilience',
  'energy storage',
  'farmworker housing',
  'school meals',
  'literacy',
  'coastal access',
  'air quality',
  'recycling',
  'veterans services',
  'tribal consultation',
  'flood control',
];
const PLACES = [
  'Sacramento',
  'the Central Valley',
  'the Delta',
  'the North Coast',
  'the Inland Empire',
  'the Bay Area',
  'the Sierra foothills',
  'Fresno County',
  'the Central Coast',
  'San Diego County',
  'rural counties',
];
const BODIES = {
  ANNOUNCEMENT: [
    'Our office has news on {topic} for members working in {place}.',
    'Please share with colleagues.',
  ],
  'PRESS RELEASE': ['Today we announced new steps on {topic} across {place}.', 'Quotes and figures follow.'],
  'POLICY UPDATE': [
    'Updated guidance on {topic} takes effect next quarter.',
    'Agencies should review it now.',
  ],
  'BILL UPDATE': ['The bill on {topic} moved out of committee this week.', 'Amendments narrowed its scope.'],
  REPORT: ['Our new report looks at {topic} in {place}.', 'Tables and methods are in the appendix.'],
  'JOB OPENING': ['We are hiring to staff our {topic} portfolio.', 'Hybrid schedule, downtown office.'],
  APPOINTMENT: ['A new deputy will lead our work on {topic}.', 'The appointment starts next month.'],
  'PUBLIC COMMENT': ['Comments are invited on draft rules for {topic}.', 'The comment period runs 45 days.'],
  EVENT: ['Join us to discuss {topic} with leaders from {place}.', 'Light refreshments will be served.'],
} as const satisfies Record<(typeof POST_TYPES)[number]['postType'], readonly [string, string]>;
const TITLES = {
  ANNOUNCEMENT: ['Update on {topic}', 'Office news: {topic}', 'Reminder about {topic} in {place}'],
  'PRESS RELEASE': ['{Topic} plan announced for {place}', 'Statement on {topic}', 'New funding for {topic}'],
  'POLICY UPDATE': ['New guidance on {topic}', '{Topic} rules updated', 'What changes for {topic}'],
  'BILL UPDATE': [
    '{Topic} bill clears committee',
    '{Topic} bill heads to the floor',
    'Amendments to the {topic} bill',
  ],
  REPORT: ['Annual report on {topic}', '{Topic} in {place}: findings', 'Data brief: {topic}'],
  'JOB OPENING': ['Policy analyst, {topic}', 'Legislative aide for {topic}', 'Fellowship: {topic}'],
  APPOINTMENT: ['New lead for {topic}', 'Appointment to the {topic} board', 'Welcome to our {topic} team'],
  'PUBLIC COMMENT': ['Comments invited on {topic}', 'Public workshop on {topic}', 'Draft {topic} rules open'],
  EVENT: ['Hearing on {topic}', 'Workshop: {topic} in {place}', 'Reception on {topic}', 'Webinar: {topic}'],
} as const;
const LOCATIONS = [
  'Capitol Annex, Room 1200, Sacramento',
  '1020 N Street, Room 100',
  'Sacramento Central Library, 828 I Street',
  'Online (link sent on registration)',
  'Fresno City Hall, 2600 Fresno Street',
  'Sutter Club, 1220 9th Street',
];
const COMMENTS = [
  'Thanks for sharing this.',
  'Is there a recording?',
  'Our office will be there.',
  'Great news for our members.',
  'Could you post the link to the full text?',
  'Congratulations!',
  'Looking forward to it.',
  'Helpful summary.',
];
/** How the posts spread over the types (id order), roughly as a capitol's feed does. */
const TYPE_WEIGHTS = [18, 12, 12, 14, 8, 8, 6, 8, 14];

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

const fill = (template: string, topic: string, place: string) =>
  template
    .replace('{Topic}', topic.charAt(0).toUpperCase() + topic.slice(1))
    .replace('{topic}', topic)
    .replace('{place}', place);

const { values } = parseArgs({
  options: {
    count: { type: 'string' },
    total: { type: 'string' },
    authors: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '2024' },
  },
});
const wholeNumber = (value: string | undefined, name: string, max: number) => {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0 || number > max) {
    process.stderr.write(`seed:posts: --${name} must be a whole number from 0 to ${max}\n`);
    process.exit(64);
  }
  return number;
};
if ((values.count === undefined) === (values.total === undefined)) {
  process.stderr.write('seed:posts: give --count (posts to add) or --total (posts to have), not both\n');
  process.exit(64);
}
const authorCount = Math.max(1, wholeNumber(values.authors, 'authors', 50_000));

const config = loadConfigOrExit(postConfigSchema, 'seed:posts');
const logger = createLogger('seed-posts', config.LOG_LEVEL);
const started = performance.now();
await migrate({
  databaseUrl: config.DATABASE_URL,
  schema: config.DATABASE_SCHEMA,
  migrationsDir: new URL('../../prisma/migrations', import.meta.url).pathname,
  logger,
});
const { prisma, repository, profiles, orgs, sanitizer, feedVersion, posts, close } = await wirePost(config);
try {
  await repository.ensureTypes(POST_TYPES, EVENT_TYPES);
  // --total: only what is missing, so a benchmark's data set is made once and reused.
  const count =
    values.count === undefined
      ? Math.max(0, wholeNumber(values.total, 'total', 2_000_000) - (await repository.count()))
      : wholeNumber(values.count, 'count', 2_000_000);
  const r = random(Number(values.seed) || 1);

  // Real owned profiles first, when the profile service answers; generated ones make up the rest.
  const authors: Author[] = [];
  try {
    for (let after = 0; authors.length < authorCount; ) {
      const page = await profiles.listAuthors(after, 1000);
      authors.push(...page.filter((author) => author.userId));
      if (page.length < 1000) break;
      after = page.at(-1)?.profileId ?? after;
    }
  } catch (error) {
    logger.warn({ err: error }, 'the profile service did not answer: generated authors only');
  }
  let organizationIds: number[] = [];
  try {
    const names = await orgs.exportNames();
    await repository.saveOrganizations(names.organizations);
    await repository.saveDivisions(names.divisions);
    organizationIds = names.organizations.map((organization) => organization.organizationId);
  } catch (error) {
    logger.warn({ err: error }, 'the org service did not answer: generated authors have no organization');
  }
  for (let n = 0; authors.length < authorCount; n++) {
    authors.push({
      profileId: GENERATED_AUTHOR_IDS_FROM + n,
      userId: `generated-author-${n}`,
      firstName: r.pick(FIRST),
      lastName: r.pick(LAST),
      organizationId: organizationIds.length > 0 ? r.pick(organizationIds) : null,
      divisionId: null,
      issueAreaIds: [],
    });
  }
  for (const author of authors)
    await repository.saveAuthor({
      profileId: author.profileId,
      userId: author.userId,
      firstName: author.firstName,
      lastName: author.lastName,
      issueAreaIds: author.issueAreaIds,
    });

  // The paragraph pool, each sanitized once by the service's sanitizer (html and visible text).
  const pool = new Map<string, { html: string; text: string }>();
  const paragraph = (html: string) => {
    let clean = pool.get(html);
    if (!clean) {
      clean = sanitizer.sanitize(html);
      pool.set(html, clean);
    }
    return clean;
  };
  const totalWeight = TYPE_WEIGHTS.reduce((sum, weight) => sum + weight, 0);
  const pickType = () => {
    let roll = r.next() * totalWeight;
    for (const [i, weight] of TYPE_WEIGHTS.entries()) {
      roll -= weight;
      if (roll < 0) return POST_TYPES[i] as (typeof POST_TYPES)[number];
    }
    return POST_TYPES[0];
  };
  const now = Date.now();

  let made = 0;
  let comments = 0;
  let likes = 0;
  while (made < count) {
    const batch: Prisma.PostCreateManyInput[] = [];
    for (let i = 0; i < Math.min(BATCH, count - made); i++) {
      const type = pickType();
      const topic = r.pick(TOPICS);
      const place = r.pick(PLACES);
      const [lead, ending] = BODIES[type.postType];
      const parts = [
        paragraph(`<p>${fill(lead, topic, place).replace(topic, `<strong>${topic}</strong>`)}</p>`),
        ...(r.next() < 0.3
          ? [
              paragraph(
                `<ol><li data-list="bullet">${r.pick(TOPICS)}</li><li data-list="bullet">${r.pick(TOPICS)}</li></ol>`,
              ),
            ]
          : []),
        paragraph(`<p>${ending}</p>`),
      ];
      const author = r.pick(authors);
      const createdAt = new Date(now - Math.floor(r.next() * 730 * DAY_MS));
      const isEvent = type.postTypeId === EVENT_POST_TYPE_ID;
      const eventDay = new Date(createdAt.getTime() + r.int(3, 60) * DAY_MS).toISOString().slice(0, 10);
      const startHour = r.int(8, 18);
      batch.push({
        title: fill(r.pick(TITLES[type.postType]), topic, place),
        body: parts.map((part) => part.html).join(''),
        bodyText: parts.map((part) => part.text).join(' '),
        authorId: author.profileId,
        userId: author.userId,
        organizationId: author.organizationId,
        divisionId: author.divisionId,
        postTypeId: type.postTypeId,
        eventTypeId: isEvent ? r.pick(EVENT_TYPES).eventTypeId : null,
        eventLocation: isEvent ? r.pick(LOCATIONS) : null,
        eventDate: isEvent ? new Date(`${eventDay}T00:00:00Z`) : null,
        eventStart: isEvent ? `${String(startHour).padStart(2, '0')}:00` : null,
        eventEnd: isEvent ? `${String(startHour + 1).padStart(2, '0')}:30` : null,
        reads: r.int(0, 400),
        createdAt,
        updatedAt: createdAt,
      });
    }
    const created = await prisma.post.createManyAndReturn({
      data: batch,
      select: { postId: true, createdAt: true },
    });
    const commentRows: Prisma.CommentCreateManyInput[] = [];
    const likeRows: { post_id: number; user_id: string; created_at: Date }[] = [];
    const likeCounts = new Map<number, number>();
    for (const row of created) {
      if (r.next() < 0.25) {
        for (let c = r.int(1, 4); c > 0; c--) {
          const commenter = r.pick(authors);
          const at = new Date(row.createdAt.getTime() + r.int(1, 72) * 3_600_000);
          commentRows.push({
            postId: row.postId,
            authorId: commenter.profileId,
            userId: commenter.userId,
            body: r.pick(COMMENTS),
            createdAt: at,
            updatedAt: r.next() < 0.2 ? new Date(at.getTime() + 3_600_000) : at,
          });
        }
      }
      // Most posts get a few likes, a few get many: one per member, so the count is the number of rows.
      const wanted = Math.min(authors.length, Math.floor(r.next() ** 4 * 24));
      const likers = new Set<string>();
      while (likers.size < wanted) likers.add(r.pick(authors).userId);
      for (const userId of likers)
        likeRows.push({ post_id: row.postId, user_id: userId, created_at: row.createdAt });
      likeCounts.set(row.postId, likers.size);
    }
    if (commentRows.length > 0) comments += (await prisma.comment.createMany({ data: commentRows })).count;
    // One JSON parameter per batch: Prisma Client's createMany spends seconds of CPU building 10,000-row inserts.
    likes += await prisma.$executeRawUnsafe(
      `INSERT INTO "${config.DATABASE_SCHEMA}"."likes" (post_id, user_id, created_at)
         SELECT post_id, user_id, created_at FROM jsonb_to_recordset($1::jsonb)
           AS l (post_id integer, user_id text, created_at timestamptz)`,
      JSON.stringify(likeRows),
    );
    await prisma.$executeRawUnsafe(
      `UPDATE "${config.DATABASE_SCHEMA}"."posts" p SET likes_count = c.n
         FROM jsonb_to_recordset($1::jsonb) AS c (id integer, n integer) WHERE p.post_id = c.id`,
      JSON.stringify([...likeCounts].map(([id, n]) => ({ id, n }))),
    );
    made += created.length;
    process.stdout.write(`  … ${made} of ${count} posts\r`);
  }
  process.stdout.write('\n');
  const inserted = performance.now();
  const indexed = await posts.syncSearchIndex();
  // A running product's gateways drop the pages they keep.
  await feedVersion.changed();
  const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
  process.stdout.write(
    `seed:posts: added ${made} posts, ${comments} comments and ${likes} likes by ${authors.length} authors in ` +
      `${seconds(started, inserted)} s, indexed ${indexed} in ${seconds(inserted, performance.now())} s\n`,
  );
} finally {
  await close();
}
