// Demo posts for the one-machine default (ADR 0008: posts of every type including events, comments
// and likes), written into an empty post table by real demo profiles: the profile service's owned profiles
// (ListAuthors), waited for since the services start together. Spread over the last six weeks; events upcoming
// and past with a location, date and times; some comments edited later. Every name and place is fictional.
import type { Logger } from '@rotunda/service-kit';
import { isUnavailable } from '../adapters/grpc-directories.ts';
import type { BodySanitizer, PostRepository, ProfileDirectory } from '../domain/ports.ts';
import { type Author, EVENT_TYPES, POST_TYPES } from '../domain/post.ts';
import { newPost, postContent } from '../domain/post-service.ts';

type PostTypeName = (typeof POST_TYPES)[number]['postType'];
type EventTypeName = (typeof EVENT_TYPES)[number]['eventType'];

interface DemoEvent {
  type: EventTypeName;
  location: string;
  /** Days from today: negative for an event that took place. */
  inDays: number;
  start: string;
  end: string;
}

interface DemoPost {
  type: PostTypeName;
  title: string;
  body: string;
  daysAgo: number;
  event?: DemoEvent;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export const DEMO_POSTS: readonly DemoPost[] = [
  {
    type: 'ANNOUNCEMENT',
    title: 'Capitol Annex tours resume for member offices',
    body: '<p>Guided tours of the renovated <strong>Capitol Annex</strong> resume for staff of member offices on Tuesdays and Thursdays.</p><p>Reserve a slot with your office manager; groups are limited to twelve.</p>',
    daysAgo: 41,
  },
  {
    type: 'PRESS RELEASE',
    title: 'Delta Water Authority adopts drought resilience plan',
    body: '<p>The board of the <strong>Delta Water Authority</strong> unanimously adopted its five-year drought resilience plan.</p><ol><li data-list="bullet">Groundwater recharge on 4,000 acres</li><li data-list="bullet">Leak detection grants for small districts</li><li data-list="bullet">A drought dashboard updated weekly</li></ol><p>Full text at <a href="https://deltawater.example.org/plan" target="_blank" rel="noopener noreferrer">deltawater.example.org</a>.</p>',
    daysAgo: 38,
  },
  {
    type: 'POLICY UPDATE',
    title: 'New guidance on remote notarization for state agencies',
    body: '<p>Agencies may accept remotely notarized documents from January 1. The guidance explains <em>which forms qualify</em> and how to verify the notary commission.</p>',
    daysAgo: 36,
  },
  {
    type: 'BILL UPDATE',
    title: 'AB 1482 (wildfire insurance) passes Assembly Insurance Committee',
    body: '<p>The bill passed committee 11–3 with amendments narrowing the mitigation discount to certified home-hardening work.</p><p>Next stop: <strong>Assembly Appropriations</strong>.</p>',
    daysAgo: 34,
  },
  {
    type: 'EVENT',
    title: 'Informational hearing: broadband deployment in rural counties',
    body: '<p>The Senate Energy, Utilities and Communications Committee holds an informational hearing on middle-mile broadband progress in rural counties.</p><p>Public comment will be taken at the end of the hearing.</p>',
    daysAgo: 33,
    event: {
      type: 'HEARING',
      location: 'Capitol Annex, Room 1200, Sacramento',
      inDays: 6,
      start: '09:30',
      end: '12:00',
    },
  },
  {
    type: 'REPORT',
    title: 'Annual report: state workforce vacancy rates',
    body: '<p>Our annual report finds vacancy rates fell to <strong>11.2%</strong> statewide, with the largest gains in information technology classifications.</p><p>Download the tables from <a href="https://workforce.example.org/report">workforce.example.org</a>.</p>',
    daysAgo: 31,
  },
  {
    type: 'JOB OPENING',
    title: 'Legislative aide, Office of Assemblymember Nakamura',
    body: '<p>The office seeks a legislative aide to staff the natural resources and water portfolio.</p><ol><li data-list="ordered">Two years of policy experience</li><li data-list="ordered">Strong writing skills</li><li data-list="ordered">Familiarity with the bill process</li></ol><p>Send a cover letter and resume to <a href="mailto:jobs@nakamura.example.org">jobs@nakamura.example.org</a>.</p>',
    daysAgo: 29,
  },
  {
    type: 'APPOINTMENT',
    title: 'Governor appoints new chair of the Coastal Commission',
    body: '<p>The Governor appointed <strong>Elena Castillo</strong>, a former Monterey County supervisor, as chair of the Coastal Commission. The appointment requires Senate confirmation.</p>',
    daysAgo: 27,
  },
  {
    type: 'PUBLIC COMMENT',
    title: 'Comments invited on draft clean fleet regulations',
    body: '<p>The Air Resources Board invites written comments on the draft clean fleet regulations for state-owned vehicles.</p><p>The comment period closes in <u>45 days</u>.</p>',
    daysAgo: 25,
  },
  {
    type: 'EVENT',
    title: 'Webinar: navigating the state budget calendar',
    body: '<p>A one-hour walk through the budget calendar, from the Governor’s January proposal to the June 15 deadline, with time for questions.</p>',
    daysAgo: 24,
    event: {
      type: 'WEBINAR',
      location: 'Online (link sent on registration)',
      inDays: 9,
      start: '12:00',
      end: '13:00',
    },
  },
  {
    type: 'ANNOUNCEMENT',
    title: 'Legislative Office Building parking changes in December',
    body: '<p>Level 2 of the garage closes for resurfacing from December 2 to December 13. Staff permits are honored at the 10th Street lot.</p>',
    daysAgo: 22,
  },
  {
    type: 'PRESS RELEASE',
    title: 'Central Valley Growers Council welcomes water storage funding',
    body: '<p>The Council welcomed the release of <strong>$285 million</strong> for off-stream storage projects, calling it a step toward reliable supplies for farms and towns alike.</p>',
    daysAgo: 20,
  },
  {
    type: 'EVENT',
    title: 'Town hall on transit funding in the Sacramento region',
    body: '<p>Join local leaders to discuss how new state transit funds will be spent across the region. Spanish interpretation provided.</p>',
    daysAgo: 19,
    event: {
      type: 'TOWN HALL',
      location: 'Sacramento Central Library, 828 I Street',
      inDays: 14,
      start: '18:00',
      end: '19:30',
    },
  },
  {
    type: 'POLICY UPDATE',
    title: 'Procurement rules updated for small business preference',
    body: '<p>The Department of General Services raised the small business preference cap and simplified certification renewals. The changes apply to solicitations released after March 1.</p>',
    daysAgo: 18,
  },
  {
    type: 'BILL UPDATE',
    title: 'SB 210 (child care rates) signed into law',
    body: '<p>The Governor signed SB 210, moving child care providers to a single rate structure over three years. Implementation guidance is expected in the spring.</p>',
    daysAgo: 16,
  },
  {
    type: 'EVENT',
    title: 'Workshop: writing a fiscal analysis that holds up',
    body: '<p>A hands-on workshop for policy staff: estimating costs, stating assumptions and answering the questions Appropriations will ask.</p>',
    daysAgo: 15,
    event: {
      type: 'WORKSHOP',
      location: '1020 N Street, Conference Room B, Sacramento',
      inDays: -3,
      start: '13:30',
      end: '16:00',
    },
  },
  {
    type: 'REPORT',
    title: 'Housing element compliance: where cities stand',
    body: '<p>A new review counts <strong>312</strong> jurisdictions in substantial compliance with housing element law and lists those still under review.</p>',
    daysAgo: 14,
  },
  {
    type: 'JOB OPENING',
    title: 'Policy analyst, Pacific Hospital Council',
    body: '<p>We are hiring a policy analyst to track health workforce and hospital financing legislation. Hybrid schedule, downtown Sacramento office.</p>',
    daysAgo: 12,
  },
  {
    type: 'EVENT',
    title: 'Winter reception for legislative staff',
    body: '<p>Our annual winter reception for legislative and agency staff. Light refreshments; no host bar.</p>',
    daysAgo: 11,
    event: {
      type: 'RECEPTION',
      location: 'Sutter Club Courtyard, 1220 9th Street',
      inDays: 20,
      start: '17:30',
      end: '19:30',
    },
  },
  {
    type: 'APPOINTMENT',
    title: 'New chief of staff for the Senate Health Committee',
    body: '<p>Marcus Okafor joins the Senate Health Committee as chief of staff after eight years with the Department of Health Care Services.</p>',
    daysAgo: 9,
  },
  {
    type: 'PUBLIC COMMENT',
    title: 'Public workshop and comment on wildfire smoke guidance',
    body: '<p>Comments are invited on updated workplace guidance for wildfire smoke. Written comments may be sent until the end of the month.</p>',
    daysAgo: 8,
  },
  {
    type: 'EVENT',
    title: 'Press conference: statewide literacy initiative',
    body: '<p>The Superintendent and partners announce a statewide early literacy initiative. Media check-in opens 30 minutes before.</p>',
    daysAgo: 6,
    event: {
      type: 'PRESS CONFERENCE',
      location: 'Capitol West Steps, Sacramento',
      inDays: 3,
      start: '10:00',
      end: '10:45',
    },
  },
  {
    type: 'ANNOUNCEMENT',
    title: 'Directory tip: keep your current position up to date',
    body: '<p>Colleague lists are built from <em>current</em> positions. Check that your profile shows where you work today.</p>',
    daysAgo: 5,
  },
  {
    type: 'PRESS RELEASE',
    title: 'Nurses association launches workforce pipeline grants',
    body: '<p>The association will fund <strong>40</strong> community college nursing instructor positions over two years to expand enrollment.</p>',
    daysAgo: 4,
  },
  {
    type: 'EVENT',
    title: 'Networking breakfast: new staff orientation',
    body: '<p>New to the Capitol? Meet colleagues from offices, agencies and associations over breakfast.</p>',
    daysAgo: 3,
    event: {
      type: 'NETWORKING',
      location: 'Cafe on the Mall, 1315 10th Street',
      inDays: 11,
      start: '07:30',
      end: '09:00',
    },
  },
  {
    type: 'BILL UPDATE',
    title: 'AB 88 (public records modernization) set for Senate floor',
    body: '<p>AB 88 cleared Senate Appropriations and is on the floor calendar. The bill sets deadlines for electronic records requests.</p>',
    daysAgo: 2,
  },
  {
    type: 'EVENT',
    title: 'Annual water policy conference',
    body: '<p>Two days of panels on supply, quality and affordability, with a keynote by the Secretary for Natural Resources.</p>',
    daysAgo: 1,
    event: {
      type: 'CONFERENCE',
      location: 'SAFE Credit Union Convention Center, Sacramento',
      inDays: 30,
      start: '08:30',
      end: '17:00',
    },
  },
  {
    type: 'POLICY UPDATE',
    title: 'Updated travel reimbursement rates',
    body: '<p>Per diem and mileage reimbursement rates for state employees change on the first of next month. See the updated rate table.</p>',
    daysAgo: 0,
  },
];

const COMMENTS = [
  'Thanks for sharing this.',
  'Is there a recording for those who cannot attend?',
  'Our office will be there.',
  'Great news for our members.',
  'Could you post the link to the full text?',
  'Congratulations!',
  'Looking forward to it.',
  'We submitted comments last week; happy to compare notes.',
  'Will there be a follow-up session?',
  'Helpful summary, thank you.',
];

/** mulberry32: the same demo data on every machine. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The owned profiles to write as, waiting while the profile service is not answering yet (the services start
 * together), at most `waitMs`. Empty when it never answers, refuses or has none: the demo then has no posts.
 */
export async function waitForAuthors(
  profiles: ProfileDirectory,
  logger: Pick<Logger, 'info' | 'warn'>,
  { waitMs = 60_000, limit = 100 }: { waitMs?: number; limit?: number } = {},
): Promise<Author[]> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return (await profiles.listAuthors(0, limit)).filter((author) => author.userId);
    } catch (error) {
      if (!isUnavailable(error) || Date.now() >= until) {
        logger.warn({ err: error }, 'the profile service did not answer ListAuthors');
        return [];
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

export interface SeedDemoPostsOptions {
  repository: PostRepository;
  profiles: ProfileDirectory;
  sanitizer: BodySanitizer;
  logger: Pick<Logger, 'info' | 'warn'>;
  now?: Date;
  waitMs?: number;
}

/** Writes the demo posts into an empty table; answers how many (0 when there were posts, or no authors). */
export async function seedDemoPosts({
  repository,
  profiles,
  sanitizer,
  logger,
  now = new Date(),
  waitMs,
}: SeedDemoPostsOptions): Promise<number> {
  if ((await repository.count()) > 0) return 0;
  const authors = await waitForAuthors(profiles, logger, waitMs === undefined ? {} : { waitMs });
  if (authors.length === 0) {
    logger.warn({}, 'no demo profiles to write as: demo posts skipped');
    return 0;
  }
  for (const author of authors)
    await repository.saveAuthor({
      profileId: author.profileId,
      userId: author.userId,
      firstName: author.firstName,
      lastName: author.lastName,
      issueAreaIds: author.issueAreaIds,
    });
  const next = random(2024);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const typeId = (name: PostTypeName) => POST_TYPES.find((type) => type.postType === name)?.postTypeId ?? 0;
  const eventTypeId = (name: EventTypeName) =>
    EVENT_TYPES.find((type) => type.eventType === name)?.eventTypeId ?? 0;

  let seeded = 0;
  for (const [i, demo] of DEMO_POSTS.entries()) {
    const author = authors[i % authors.length] as Author;
    // A few hours into the day it was posted, so two posts of one day keep their order.
    const createdAt = new Date(now.getTime() - demo.daysAgo * DAY_MS - (i % 7) * HOUR_MS);
    const content = postContent(sanitizer, {
      title: demo.title,
      body: demo.body,
      postTypeId: typeId(demo.type),
      eventLocation: demo.event?.location ?? '',
      eventDate: demo.event ? day(new Date(now.getTime() + demo.event.inDays * DAY_MS)) : '',
      eventStart: demo.event?.start ?? '',
      eventEnd: demo.event?.end ?? '',
      eventTypeId: demo.event ? eventTypeId(demo.event.type) : 0,
    });
    const postId = await repository.create(newPost(content, author), {
      createdAt,
      reads: Math.floor(next() * 120),
    });
    seeded++;

    const others = authors.filter((other) => other.profileId !== author.profileId);
    const commentCount = others.length === 0 ? 0 : Math.floor(next() * 4);
    for (let c = 0; c < commentCount; c++) {
      const commenter = pick(others);
      const at = new Date(createdAt.getTime() + (c + 1) * 2 * HOUR_MS);
      // Every third comment was edited an hour later (docs/product.md#3-entities-and-their-fields: shown as
      // edited).
      const edited = (i + c) % 3 === 0;
      await repository.addComment(
        { postId, authorId: commenter.profileId, userId: commenter.userId, body: pick(COMMENTS) },
        { createdAt: at, updatedAt: edited ? new Date(at.getTime() + HOUR_MS) : at },
      );
    }
    for (const liker of authors) {
      if (liker.profileId !== author.profileId && next() < 0.45)
        await repository.setLike(postId, liker.userId, true);
    }
  }
  return seeded;
}
