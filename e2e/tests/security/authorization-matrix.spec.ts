// Security suite, part 2: who may call each write route. One table (MATRIX) lists every write route of the
// gateway (and the contributor-only reads): either the cases to try, each with the exact set of callers allowed,
// or why the route is not about who calls (its credential travels in the body, or it is a public read). A route
// the gateway serves that the table does not list fails the first test.
//
// Each case is called by a visitor, the owner of the resource (a new member with a profile), another member
// (the same), a contributor (the demo Concierge) and a suspended member (a new member with a profile, suspended
// by the contributor), refused callers first. A refused call must answer 401 (visitor) or 403/409 (members) and
// change nothing: the resource is read before and after. The suspended member still reads what any member reads
// and may change their own password, but every other write answers 403 with 'Your account is suspended until
// <date>: <reason>' before any other check (ADR 0041), whatever else the call would have met. An allowed call
// must succeed and, where it writes, change the resource; it is then undone, so the next caller meets the same
// state. The rules (docs/product.md#6-roles-and-permissions): posts and comments by their
// author; profiles by their owner, or by a contributor while unclaimed; organizations by contributors, though
// members may add one (without a Cal-Access ID); jobs and issues by the profile's owner; one claim per user;
// a pending claimant may neither change the profile nor post as it until a contributor confirms; members
// report posts and comments (not their own), contributors read the queue and the log, decide, suspend and
// lift; only administrators (the demo administrator, a sixth caller on their routes alone) read and change
// the access lists, grant and take away roles, read the admin log and, in Keycloak mode, register and remove
// agencies.
import { randomBytes } from 'node:crypto';
import { type APIRequestContext, type APIResponse, expect, test } from '@playwright/test';
import { DEMO } from '../support/accounts.ts';
import { ApiSession } from '../support/api-session.ts';
import { solidPng } from '../support/images.ts';
import { type Member, newMember } from '../support/members.ts';
import { type ApiProfile, organizationIdNamed, WATER } from '../support/profiles.ts';
import { isWrite, routeKey, routeTable } from '../support/rest-routes.ts';

const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

type Actor = 'visitor' | 'owner' | 'other' | 'contributor' | 'suspended' | 'admin';
const ACTORS: readonly Actor[] = ['visitor', 'owner', 'other', 'contributor', 'suspended'];
/** The access administration routes are also called by the demo administrator, allowed there alone. */
const ADMIN_ROUTES = /^\w+ \/api\/admin\//;
const actorsOf = (route: string): readonly Actor[] =>
  ADMIN_ROUTES.test(route) ? [...ACTORS, 'admin'] : ACTORS;
/** The members who may write: everyone signed in but the suspended member. */
const MEMBERS: readonly Actor[] = ['owner', 'other', 'contributor'];
/** Whoever is signed in may read what members read, a suspended member too. */
const READERS: readonly Actor[] = [...MEMBERS, 'suspended'];
const NOBODY: readonly Actor[] = [];

interface Call {
  method?: string;
  path: string;
  data?: unknown;
  multipart?: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>;
}

interface Case {
  /** What the call acts on, e.g. "the owner's post". */
  target: string;
  allowed: readonly Actor[];
  call: (actor: Actor) => Call;
  /** The resource as the server holds it; compared before and after each call. */
  read: () => Promise<unknown>;
  /** An allowed call writes: what read() answers must then differ. */
  writes?: boolean;
  /** How long the write may take to show in read() (none: at once). */
  showsWithinMs?: number;
  /** Puts the resource back after an allowed call. */
  undo?: (actor: Actor, answer: unknown) => Promise<void>;
  /** A read (sent as GET, or as POST by the as-built client): a suspension does not refuse it. */
  reads?: boolean;
}

/** Routes whose caller is not the question, with the reason. */
type Exempt = { exempt: string };
type Entry = Exempt | ((fx: Fixtures) => Case[]);

interface Fixtures {
  owner: Member;
  other: Member;
  claimant: Member;
  /** Suspended by the contributor in the set-up, lifted at the end. */
  suspended: Member;
  /** A post of the suspended member's, made before the suspension, which the moderation cases report. */
  reportedPost: number;
  contributor: ApiSession;
  /** The demo administrator (realm role 'admin', not a contributor). */
  admin: ApiSession;
  /** A beta tester's email the administrator's DELETE removes, added in the set-up. */
  doomedBetaEmail: string;
  /** Whether agencies can be registered (Keycloak mode), as the administrator's list says. */
  agencies: boolean;
  /** An agency the administrator's DELETE removes, registered in the set-up (Keycloak mode only). */
  doomedAgency: string | null;
  ownerProfile: ApiProfile;
  post: number;
  doomedPost: number;
  comment: number;
  doomedComment: number;
  organization: { id: number; name: string };
  water: number;
  division: number;
  job: number;
  doomedJob: number;
  userIssue: number;
  freeIssue: number;
  unclaimed: ApiProfile;
  claimed: ApiProfile;
  secondClaim: ApiProfile;
  postType: number;
  password: Record<Exclude<Actor, 'visitor'>, string>;
}

// ------------------------------------------------------------------------------------------- reading

let api: APIRequestContext;
let fx: Fixtures;

function sessionOf(actor: Actor): ApiSession | undefined {
  if (actor === 'visitor') return undefined;
  if (actor === 'contributor') return fx.contributor;
  if (actor === 'admin') return fx.admin;
  return fx[actor].session;
}

async function callAs(actor: Actor, call: Call): Promise<APIResponse> {
  const headers = (await sessionOf(actor)?.headers()) ?? {};
  return api.fetch(call.path, {
    method: call.method ?? 'POST',
    headers,
    data: call.data,
    multipart: call.multipart,
  });
}

async function json<T>(response: APIResponse, status = 200): Promise<T> {
  expect(response.status(), `${response.url()}: ${await response.text()}`).toBe(status);
  return (await response.json()) as T;
}

const asContributor = async () => fx.contributor.headers();
const asAdmin = async () => fx.admin.headers();

const readProfile = async (id: number) =>
  json<ApiProfile>(await api.get(`/api/profiles/profile/${id}`, { headers: await asContributor() }));

const readOrganization = async (id: number) =>
  json<Record<string, unknown>>(await api.get(`/api/orgs/${id}`, { headers: await asContributor() }));

interface FeedPost {
  post_id: number;
  post_title: string;
  likes_count: number;
  reads: number;
  comments_count: number;
  PostComments: { comment_id: number; comment_body: string }[];
}

/** This run's posts, as a member reads the feed (never the visitors' cache): every title holds RUN. */
async function runPosts(): Promise<FeedPost[]> {
  return json<FeedPost[]>(
    await api.post('/api/posts/all', { headers: await asContributor(), data: { search: RUN, limit: 50 } }),
  );
}

async function readPost(id: number): Promise<FeedPost | null> {
  return (await runPosts()).find((post) => post.post_id === id) ?? null;
}

const PNG = () => ({ name: 'p.png', mimeType: 'image/png', buffer: solidPng(40, 40, [90, 30, 160]) });

const jobFields = (title: string) => ({
  title,
  organization_id: fx.water,
  street_address: '1416 9th Street',
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  start_date: '2015-01-01',
  end_date: '2016-01-01',
  current_job: false,
});

// ------------------------------------------------------------------------------------------- the table

const MATRIX: Record<string, Entry> = {
  // Credentials in the body, or no account involved: covered by the access specs (login, registration, reset).
  'POST /auth/verify': { exempt: 'checks a captcha; no account involved' },
  'POST /auth/check-email': { exempt: 'public eligibility check (registration.spec)' },
  'POST /auth/register': { exempt: 'creates an account; the captcha and mail confirmation guard it' },
  'POST /auth/confirm-registration': { exempt: 'the mailed one-time token is the credential' },
  'POST /auth/login': { exempt: 'the password is the credential' },
  'POST /auth/logout': { exempt: 'the refresh token is the credential' },
  'POST /auth/request-password-reset': { exempt: 'public; answers alike for every address' },
  'POST /auth/reset-password/:token': { exempt: 'the mailed one-time token is the credential' },
  'POST /auth/agency/start': { exempt: 'public; the agency’s own sign-in is the credential' },
  'POST /auth/agency/complete': { exempt: 'the code and state Keycloak sent back are the credential' },
  'POST /auth/backchannel-logout': { exempt: 'the logout token Keycloak signed is the credential' },
  'POST /realms/:realm/protocol/openid-connect/token': { exempt: 'the refresh token is the credential' },
  'POST /realms/:realm/protocol/openid-connect/logout': { exempt: 'the refresh token is the credential' },
  'POST /api/posts/all': { exempt: 'the public feed: a read anyone may make' },

  'POST /auth/update-password': (f) => [
    {
      target: "the caller's own password",
      // Securing one's account stays open to a suspended member: a suspension is about what they publish.
      allowed: READERS,
      call: (actor) => ({
        path: '/auth/update-password',
        data: {
          currentPassword: actor === 'visitor' ? f.password.owner : f.password[actor],
          newPassword: `Rotunda#Authz${RUN}`,
        },
      }),
      read: async () => null,
      undo: async (actor) => {
        const back = await callAs(actor, {
          path: '/auth/update-password',
          data: {
            currentPassword: `Rotunda#Authz${RUN}`,
            newPassword: f.password[actor as Exclude<Actor, 'visitor'>],
          },
        });
        expect(back.status(), `password of ${actor} changed back: ${await back.text()}`).toBe(200);
      },
    },
  ],
  'GET /auth/beta-access': () => [contributorRead('/auth/beta-access')],
  'GET /auth/approved-emails': () => [contributorRead('/auth/approved-emails')],

  'POST /api/posts/add-post': (f) => [
    {
      target: 'a new post of their own',
      allowed: MEMBERS,
      call: (actor) => ({
        path: '/api/posts/add-post',
        data: { post_title: `Authz ${RUN} new by ${actor}`, post_body: '<p>new</p>', post_type: f.postType },
      }),
      read: async () => (await runPosts()).map((post) => post.post_title).sort(),
      writes: true,
      undo: async (actor, answer) =>
        void expect(
          (
            await callAs(actor, {
              method: 'DELETE',
              path: '/api/posts/delete-post',
              data: { post_id: (answer as FeedPost).post_id },
            })
          ).status(),
        ).toBe(204),
    },
  ],
  'POST /api/posts/update-post': (f) => [
    {
      target: "the owner's post",
      allowed: ['owner'],
      call: (actor) => ({
        path: '/api/posts/update-post',
        data: { post_id: f.post, post_title: `Authz ${RUN} kept, edited by ${actor}` },
      }),
      read: () => readPost(f.post),
      writes: true,
      undo: async (actor) =>
        void (await json(
          await callAs(actor, {
            path: '/api/posts/update-post',
            data: { post_id: f.post, post_title: `Authz ${RUN} kept` },
          }),
        )),
    },
  ],
  'DELETE /api/posts/delete-post': (f) => [
    {
      target: "the owner's post",
      allowed: ['owner'],
      call: () => ({ method: 'DELETE', path: '/api/posts/delete-post', data: { post_id: f.doomedPost } }),
      read: () => readPost(f.doomedPost),
      writes: true,
    },
  ],
  'POST /api/posts/add-comment': (f) => [
    {
      target: "a comment of their own on the owner's post",
      allowed: MEMBERS,
      call: (actor) => ({
        path: '/api/posts/add-comment',
        data: { post_id: f.post, comment_body: `by ${actor}` },
      }),
      read: async () => (await readPost(f.post))?.comments_count,
      writes: true,
      undo: async (actor, answer) =>
        void expect(
          (
            await callAs(actor, {
              method: 'DELETE',
              path: '/api/posts/delete-comment',
              data: { comment_id: (answer as { comment_id: number }).comment_id },
            })
          ).status(),
        ).toBe(204),
    },
  ],
  'POST /api/posts/update-comment': (f) => [
    {
      target: "the owner's comment",
      allowed: ['owner'],
      call: (actor) => ({
        path: '/api/posts/update-comment',
        data: { comment_id: f.comment, comment_body: `edited by ${actor}` },
      }),
      read: async () => (await readPost(f.post))?.PostComments.find((c) => c.comment_id === f.comment),
      writes: true,
      undo: async (actor) =>
        void (await json(
          await callAs(actor, {
            path: '/api/posts/update-comment',
            data: { comment_id: f.comment, comment_body: 'kept' },
          }),
        )),
    },
  ],
  'DELETE /api/posts/delete-comment': (f) => [
    {
      target: "the owner's comment",
      allowed: ['owner'],
      call: () => ({
        method: 'DELETE',
        path: '/api/posts/delete-comment',
        data: { comment_id: f.doomedComment },
      }),
      read: async () => (await readPost(f.post))?.PostComments.map((c) => c.comment_id).sort(),
      writes: true,
    },
  ],
  'POST /api/posts/add-like': (f) => [
    {
      target: "their like on the owner's post",
      allowed: MEMBERS,
      call: () => ({ path: '/api/posts/add-like', data: { post_id: f.post, liked: true } }),
      read: async () => (await readPost(f.post))?.likes_count,
      writes: true,
      undo: async (actor) =>
        void (await json(
          await callAs(actor, { path: '/api/posts/add-like', data: { post_id: f.post, liked: false } }),
        )),
    },
  ],
  'POST /api/posts/update-read-count': (f) => [
    {
      target: "a read of the owner's post (anyone reading counts)",
      allowed: ACTORS,
      call: () => ({ path: '/api/posts/update-read-count', data: { post_id: f.post } }),
      read: async () => (await readPost(f.post))?.reads,
      writes: true,
      // Read counts reach the shared feed pages within a second or so, not on the reader's next page (ADR 0028);
      // the call's own answer carries the new count.
      showsWithinMs: 2000,
    },
  ],
  'POST /api/posts/get-likes/:id': (f) => [
    {
      target: "the owner's list of likes",
      allowed: ['owner'],
      call: () => ({ path: `/api/posts/get-likes/${f.owner.session.user.user_id}`, data: {} }),
      read: async () => null,
      reads: true,
    },
  ],
  'POST /api/posts/profile-info': () => [memberRead('/api/posts/profile-info', {})],

  'POST /api/orgs/add-organization': () => [
    {
      target: 'a new organization',
      allowed: MEMBERS,
      call: (actor) => ({
        path: '/api/orgs/add-organization',
        data: { organization_name: `Authz Org ${RUN} by ${actor}`, group_type: 'Other' },
      }),
      read: () => organizationsNamed(`Authz Org ${RUN} by`),
      writes: true,
    },
    {
      target: 'a new lobbying firm with a Cal-Access ID',
      allowed: ['contributor'],
      call: (actor) => ({
        path: '/api/orgs/add-organization',
        data: {
          organization_name: `Authz Lobby ${RUN} by ${actor}`,
          group_type: 'Lobbyists',
          lobby_filer_id: '1234567',
        },
      }),
      read: () => organizationsNamed(`Authz Lobby ${RUN} by`),
      writes: true,
    },
  ],
  'POST /api/orgs/update-organization': (f) => [
    {
      target: "an organization's details",
      allowed: ['contributor'],
      call: (actor) => ({
        path: '/api/orgs/update-organization',
        data: {
          organization_id: f.organization.id,
          organization_name: f.organization.name,
          street_address: `1 ${actor} Way`,
        },
      }),
      read: () => readOrganization(f.organization.id),
      writes: true,
      undo: async (actor) =>
        void (await json(
          await callAs(actor, {
            path: '/api/orgs/update-organization',
            data: { organization_id: f.organization.id, street_address: '1 Capitol Mall' },
          }),
        )),
    },
  ],
  'POST /api/orgs/upload-organization-logo': (f) => [
    {
      target: "an organization's logo",
      allowed: ['contributor'],
      call: () => ({
        path: '/api/orgs/upload-organization-logo',
        multipart: { logo: PNG(), organization_id: String(f.organization.id), image_type: 'png' },
      }),
      read: () => readOrganization(f.organization.id),
      writes: true,
    },
  ],
  'POST /api/orgs/add-division': (f) => [
    {
      target: 'a new division of an organization (the profile flow adds the office a job is at)',
      allowed: MEMBERS,
      call: (actor) => ({
        path: '/api/orgs/add-division',
        data: { organization_id: f.organization.id, division_name: `Division by ${actor}` },
      }),
      read: async () => (await readOrganization(f.organization.id)).Divisions,
      writes: true,
    },
  ],

  'POST /api/profiles/new-user-check': () => [
    memberRead('/api/profiles/new-user-check', { first_name: 'Nobody', last_name: RUN, email: 'x@x.ca.gov' }),
  ],
  'POST /api/profiles/create-profile': (f) => [
    {
      target: 'a second profile (every caller here has one already)',
      allowed: NOBODY,
      call: () => ({
        path: '/api/profiles/create-profile',
        data: {
          profile_picture: f.ownerProfile.profile_picture,
          first_name: 'Second',
          last_name: `Authz${RUN}`,
          work_email: `second-${RUN}@agency.ca.gov`,
          other_phone: '9165550111',
        },
      }),
      read: async () =>
        (
          await json<{ total: number }>(
            await api.get('/api/profiles/search', {
              headers: await asContributor(),
              params: { search: `Authz${RUN}` },
            }),
          )
        ).total,
    },
  ],
  'POST /api/profiles/upload-profile-picture': (f) => [
    {
      target: "the owner's profile picture",
      allowed: ['owner'],
      call: () => ({
        path: '/api/profiles/upload-profile-picture',
        multipart: {
          profile_picture: PNG(),
          profile_id: String(f.ownerProfile.profile_id),
          image_type: 'png',
        },
      }),
      read: () => readProfile(f.ownerProfile.profile_id),
      writes: true,
    },
    {
      target: 'a picture for a profile yet to be made (create-profile step 1)',
      allowed: MEMBERS,
      call: () => ({
        path: '/api/profiles/upload-profile-picture',
        multipart: { profile_picture: PNG(), image_type: 'png' },
      }),
      read: async () => null,
    },
  ],
  'POST /api/profiles/update-profile': (f) => [
    {
      target: "the owner's profile",
      allowed: ['owner'],
      call: (actor) => ({
        path: '/api/profiles/update-profile',
        data: { profile_id: f.ownerProfile.profile_id, mobile_phone: phoneOf(actor) },
      }),
      read: () => readProfile(f.ownerProfile.profile_id),
      writes: true,
      undo: (actor) => restoreProfile(actor, f.ownerProfile),
    },
    {
      target: 'a profile nobody owns',
      allowed: ['contributor'],
      call: (actor) => ({
        path: '/api/profiles/update-profile',
        data: { profile_id: f.unclaimed.profile_id, mobile_phone: phoneOf(actor) },
      }),
      read: () => readProfile(f.unclaimed.profile_id),
      writes: true,
      undo: (actor) => restoreProfile(actor, f.unclaimed),
    },
    {
      target: "the owner's lobbyist filer id (contributors set it, and only on profiles nobody owns)",
      allowed: NOBODY,
      call: () => ({
        path: '/api/profiles/update-profile',
        data: { profile_id: f.ownerProfile.profile_id, lobby_filer_id: '7654321' },
      }),
      read: () => readProfile(f.ownerProfile.profile_id),
    },
  ],
  'POST /api/profiles/claim/:profile_id': (f) => [
    {
      target: 'a profile nobody owns (every caller here owns one already: one claim per user)',
      allowed: NOBODY,
      call: () => ({ path: `/api/profiles/claim/${f.secondClaim.profile_id}`, data: {} }),
      read: () => readProfile(f.secondClaim.profile_id),
    },
  ],
  'GET /api/profiles/claims': () => [contributorRead('/api/profiles/claims')],
  'GET /api/history/profile/:id': (f) => [contributorRead(`/api/history/profile/${f.unclaimed.profile_id}`)],
  'GET /api/history/organization/:id': (f) => [contributorRead(`/api/history/organization/${f.water}`)],
  'POST /api/profiles/claims/:claim_id': (f) => [
    {
      target: "a member's pending claim (rejected by the contributor)",
      allowed: ['contributor'],
      call: () => ({ path: `/api/profiles/claims/${pendingClaimId}`, data: { decision: 'reject' } }),
      read: async () => ({
        queued: (
          await json<{ claim_id: number }[]>(
            await api.get('/api/profiles/claims', { headers: await asContributor() }),
          )
        ).some((claim) => claim.claim_id === pendingClaimId),
        profile: await readProfile(f.claimed.profile_id),
      }),
      writes: true,
    },
  ],
  'POST /api/profiles/add-job': (f) => [
    {
      target: "a job on the owner's profile",
      allowed: ['owner'],
      call: (actor) => ({
        path: '/api/profiles/add-job',
        data: { profile_id: f.ownerProfile.profile_id, ...jobFields(`Added by ${actor}`) },
      }),
      read: () => readProfile(f.ownerProfile.profile_id),
      writes: true,
      undo: async (actor, answer) =>
        void expect(
          (
            await callAs(actor, {
              method: 'DELETE',
              path: '/api/profiles/delete-job',
              data: { job_id: (answer as { job_id: number }).job_id },
            })
          ).status(),
        ).toBe(204),
    },
  ],
  'POST /api/profiles/update-job': (f) => [
    {
      target: "a job on the owner's profile",
      allowed: ['owner'],
      call: (actor) => ({
        path: '/api/profiles/update-job',
        data: { job_id: f.job, ...jobFields(`Edited by ${actor}`) },
      }),
      read: () => readProfile(f.ownerProfile.profile_id),
      writes: true,
      undo: async (actor) =>
        void (await json(
          await callAs(actor, {
            path: '/api/profiles/update-job',
            data: { job_id: f.job, ...jobFields('Kept job') },
          }),
        )),
    },
  ],
  'DELETE /api/profiles/delete-job': (f) => [
    {
      target: "a past job on the owner's profile",
      allowed: ['owner'],
      call: () => ({ method: 'DELETE', path: '/api/profiles/delete-job', data: { job_id: f.doomedJob } }),
      read: () => readProfile(f.ownerProfile.profile_id),
      writes: true,
    },
  ],
  'POST /api/profiles/organization-colleagues': (f) => [
    memberRead('/api/profiles/organization-colleagues', { organization_id: f.water }),
  ],
  'POST /api/profiles/division-colleagues': (f) => [
    memberRead('/api/profiles/division-colleagues', { division_id: f.division }),
  ],
  'POST /api/profiles/bio/:profile_id': (f) => [
    {
      target: "the owner's bio",
      allowed: ['owner'],
      call: (actor) => ({
        path: `/api/profiles/bio/${f.ownerProfile.profile_id}`,
        data: { user_bio: `Bio by ${actor}` },
      }),
      read: () => readProfile(f.ownerProfile.profile_id),
      writes: true,
      undo: (actor) => restoreBio(actor, f.ownerProfile),
    },
    {
      target: 'the bio of a profile nobody owns',
      allowed: ['contributor'],
      call: (actor) => ({
        path: `/api/profiles/bio/${f.unclaimed.profile_id}`,
        data: { user_bio: `Bio by ${actor}` },
      }),
      read: () => readProfile(f.unclaimed.profile_id),
      writes: true,
      undo: (actor) => restoreBio(actor, f.unclaimed),
    },
  ],

  'POST /api/reports': (f) => [
    {
      target: "the suspended member's post (three members' reports hide it)",
      allowed: MEMBERS,
      call: (actor) => ({
        path: '/api/reports',
        data: { target_type: 'post', target_id: f.reportedPost, reason: 'spam', note: `by ${actor}` },
      }),
      read: () => openReportsOf(f.reportedPost),
      writes: true,
    },
  ],
  'GET /api/reports': () => [contributorRead('/api/reports?status=open')],
  'GET /api/reports/mine': () => [memberRead('/api/reports/mine', undefined, 'GET')],
  'POST /api/reports/decide': (f) => [
    {
      target: 'the reported post (its reports dismissed)',
      allowed: ['contributor'],
      call: (actor) => ({
        path: '/api/reports/decide',
        data: {
          target_type: 'post',
          target_id: f.reportedPost,
          action: 'dismiss',
          reason: `Dismissed by ${actor}`,
        },
      }),
      read: async () => ({ open: await openReportsOf(f.reportedPost), log: await newestLogEntry() }),
      writes: true,
    },
  ],
  // The lift case below lifts the suspension this one makes: MATRIX runs in its written order.
  'POST /api/moderation/suspensions': (f) => [
    {
      target: 'the pending claimant (suspended for a day)',
      allowed: ['contributor'],
      call: (actor) => ({
        path: '/api/moderation/suspensions',
        data: { user_id: f.claimant.session.user.user_id, days: 1, reason: `Authz ${RUN} by ${actor}` },
      }),
      read: newestLogEntry,
      writes: true,
    },
  ],
  'DELETE /api/moderation/suspensions/:user_id': (f) => [
    {
      target: "the pending claimant's suspension",
      allowed: ['contributor'],
      call: () => ({
        method: 'DELETE',
        path: `/api/moderation/suspensions/${encodeURIComponent(f.claimant.session.user.user_id)}`,
      }),
      read: newestLogEntry,
      writes: true,
    },
  ],
  'GET /api/moderation/log': () => [contributorRead('/api/moderation/log')],
  'GET /api/moderation/me': () => [memberRead('/api/moderation/me', undefined, 'GET')],

  // Access administration (docs/product.md#access-administration): administrators only.
  'GET /api/admin/access': () => [adminRead('/api/admin/access')],
  'POST /api/admin/access': () => [
    {
      target: 'a new beta tester',
      allowed: ['admin'],
      call: () => ({
        path: '/api/admin/access',
        data: { list: 'beta_emails', value: `authz-${RUN}@beta.example.org` },
      }),
      read: accessLists,
      writes: true,
      undo: async (actor) =>
        void (await json(
          await callAs(actor, {
            method: 'DELETE',
            path: '/api/admin/access',
            data: { list: 'beta_emails', value: `authz-${RUN}@beta.example.org` },
          }),
        )),
    },
  ],
  'DELETE /api/admin/access': (f) => [
    {
      target: 'a beta tester added in the set-up',
      allowed: ['admin'],
      call: () => ({
        method: 'DELETE',
        path: '/api/admin/access',
        data: { list: 'beta_emails', value: f.doomedBetaEmail },
      }),
      read: accessLists,
      writes: true,
    },
  ],
  'POST /api/admin/roles': (f) => [
    {
      target: "the pending claimant's contributor role (granted, then taken back)",
      allowed: ['admin'],
      call: () => ({
        path: '/api/admin/roles',
        data: { email: f.claimant.account.email, role: 'contributor', grant: true },
      }),
      read: newestAdminLogEntry,
      writes: true,
      undo: async (actor) =>
        void (await json(
          await callAs(actor, {
            path: '/api/admin/roles',
            data: { email: f.claimant.account.email, role: 'contributor', grant: false },
          }),
        )),
    },
  ],
  'GET /api/admin/log': () => [adminRead('/api/admin/log')],
  'GET /api/admin/agencies': () => [adminRead('/api/admin/agencies')],
  // Without Keycloak nobody registers an agency: the administrator is refused too (409), and nothing changes.
  'POST /api/admin/agencies': (f) => [
    {
      target: 'a new agency',
      allowed: f.agencies ? ['admin'] : NOBODY,
      call: () => ({ path: '/api/admin/agencies', data: agencyBody(`Authz ${RUN} new`) }),
      read: agencies,
      writes: true,
      undo: async (actor, answer) =>
        void (await callAs(actor, {
          method: 'DELETE',
          path: `/api/admin/agencies/${(answer as { alias: string }).alias}`,
        })),
    },
  ],
  'DELETE /api/admin/agencies/:alias': (f) =>
    f.doomedAgency
      ? [
          {
            target: 'an agency registered in the set-up',
            allowed: ['admin'],
            call: () => ({ method: 'DELETE', path: `/api/admin/agencies/${f.doomedAgency}` }),
            read: agencies,
            writes: true,
          },
        ]
      : [],

  // A member's own notifications, mail choices and data: their rights, which a suspension does not take (ADR 0042).
  'GET /api/notifications': () => [memberRead('/api/notifications', undefined, 'GET')],
  'GET /api/notifications/preferences': () => [
    memberRead('/api/notifications/preferences', undefined, 'GET'),
  ],
  'GET /api/me/export': () => [memberRead('/api/me/export', undefined, 'GET')],
  'POST /api/notifications/read': () => [
    {
      target: "the caller's own notifications (all marked read)",
      allowed: READERS,
      call: () => ({ path: '/api/notifications/read', data: { all: true } }),
      read: async () => null,
    },
  ],
  'PUT /api/notifications/preferences': () => [
    {
      target: "the caller's own mail preferences",
      allowed: READERS,
      call: () => ({
        method: 'PUT',
        path: '/api/notifications/preferences',
        data: { email_digest: 'weekly', email_now: { mention: true, claim: true, moderation: true } },
      }),
      read: async () => null,
    },
  ],
  'POST /api/notifications/unsubscribe': {
    exempt: "the mail's unsubscribe token is the credential: no sign-in, by design (RFC 8058)",
  },
  'POST /api/me/delete': {
    exempt: 'the password is the credential; a wrong one deletes nothing (gateway/test/my-data.test.ts)',
  },

  'POST /api/issues/add-issue-area': () => [
    {
      target: 'a new issue area (the profile flow adds one a member types)',
      allowed: MEMBERS,
      call: (actor) => ({
        path: '/api/issues/add-issue-area',
        data: { issue_name: `Authz ${RUN} ${actor}` },
      }),
      read: async () =>
        (
          await json<{ issue_name: string }[]>(
            await api.get('/api/issues', { headers: await asContributor() }),
          )
        )
          .map((issue) => issue.issue_name)
          .filter((name) => name.includes(RUN))
          .sort(),
      writes: true,
    },
  ],
  'POST /api/issues/add-user-issue': (f) => [
    {
      target: "an issue on the owner's profile",
      allowed: ['owner'],
      call: () => ({
        path: '/api/issues/add-user-issue',
        data: { profile_id: f.ownerProfile.profile_id, issue_id: f.freeIssue },
      }),
      read: () => readProfile(f.ownerProfile.profile_id),
      writes: true,
      undo: async (actor, answer) =>
        void expect(
          (
            await callAs(actor, {
              method: 'DELETE',
              path: '/api/issues/delete-user-issue',
              data: { id: (answer as { id: number }).id },
            })
          ).status(),
        ).toBe(204),
    },
  ],
  'DELETE /api/issues/delete-user-issue': (f) => [
    {
      target: "an issue on the owner's profile",
      allowed: ['owner'],
      call: () => ({ method: 'DELETE', path: '/api/issues/delete-user-issue', data: { id: f.userIssue } }),
      read: () => readProfile(f.ownerProfile.profile_id),
      writes: true,
    },
  ],
};

/** What read() answers once it differs from `before`, or at the end of the case's `showsWithinMs`. */
async function readOnceChanged(testCase: Case, before: unknown): Promise<unknown> {
  const until = Date.now() + (testCase.showsWithinMs ?? 0);
  for (;;) {
    const now = await testCase.read();
    if (JSON.stringify(now) !== JSON.stringify(before) || Date.now() >= until) return now;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The first `errors[].msg` of a refusal's body, or the body itself. */
function messageOf(text: string): string {
  try {
    return (JSON.parse(text) as { errors?: { msg?: string }[] }).errors?.[0]?.msg ?? text;
  } catch {
    return text;
  }
}

/** Reads that only contributors may make (the access lists, the claims queue, the moderation queue and log). */
function contributorRead(path: string): Case {
  return {
    target: 'a contributors-only list',
    allowed: ['contributor'],
    call: () => ({ method: 'GET', path }),
    read: async () => null,
    reads: true,
  };
}

/** Reads that only administrators may make (the access lists, the admin log). */
function adminRead(path: string): Case {
  return {
    target: 'an administrators-only list',
    allowed: ['admin'],
    call: () => ({ method: 'GET', path }),
    read: async () => null,
    reads: true,
  };
}

/** Reads (sent as POST by the as-built client, unless `method` says) that any member may make and a visitor may not. */
function memberRead(path: string, data: unknown, method = 'POST'): Case {
  return {
    target: 'a members-only read',
    allowed: READERS,
    call: () => ({ method, path, data }),
    read: async () => null,
    reads: true,
  };
}

const phoneOf = (actor: Actor) => `916555${ACTORS.indexOf(actor)}${ACTORS.indexOf(actor)}99`;

async function restoreProfile(actor: Actor, profile: ApiProfile) {
  await json(
    await callAs(actor, {
      path: '/api/profiles/update-profile',
      data: {
        profile_id: profile.profile_id,
        mobile_phone: (profile as { mobile_phone?: string | null }).mobile_phone ?? '',
      },
    }),
  );
}

async function restoreBio(actor: Actor, profile: ApiProfile) {
  await json(
    await callAs(actor, {
      path: `/api/profiles/bio/${profile.profile_id}`,
      data: { user_bio: profile.user_bio ?? '' },
    }),
  );
}

async function organizationsNamed(prefix: string): Promise<string[]> {
  const page = await json<{ organizations: { organization_name: string }[] }>(
    await api.get('/api/orgs', { headers: await asContributor(), params: { search: prefix, limit: 50 } }),
  );
  return page.organizations
    .map((o) => o.organization_name)
    .filter((name) => name.startsWith(prefix))
    .sort();
}

let pendingClaimId = 0;

interface QueueEntry {
  target_type: string;
  target_id: number;
  reports_count: number;
  state: string;
}

/** The open reports of the reported post, as the contributors' queue lists them (null when none is open). */
async function openReportsOf(postId: number): Promise<Pick<QueueEntry, 'reports_count' | 'state'> | null> {
  const queue = await json<QueueEntry[]>(
    await api.get('/api/reports', { headers: await asContributor(), params: { status: 'open' } }),
  );
  const entry = queue.find((e) => e.target_type === 'post' && e.target_id === postId);
  return entry ? { reports_count: entry.reports_count, state: entry.state } : null;
}

/** The moderation log's newest entry: every decision, suspension and lift writes one. */
async function newestLogEntry(): Promise<unknown> {
  const [entry] = await json<{ at: string; action: string; user_id: string }[]>(
    await api.get('/api/moderation/log', { headers: await asContributor(), params: { limit: 1 } }),
  );
  return entry ?? null;
}

/** The three access lists, as the administrator reads them. */
async function accessLists(): Promise<unknown> {
  return json(await api.get('/api/admin/access', { headers: await asAdmin() }));
}

/** The agencies, as the administrator reads them. */
async function agencies(): Promise<unknown> {
  return json(await api.get('/api/admin/agencies', { headers: await asAdmin() }));
}

/**
 * An agency registered by the discovery URL of the engines' second realm, which plays the agency in Keycloak mode
 * (E2E_KEYCLOAK_URL, as test:engines sets it; on the production stack E2E_AGENCY_KEYCLOAK_URL, Keycloak's address
 * inside the stack, as Keycloak reads the metadata itself); its one domain is this run's own.
 */
function agencyBody(name: string) {
  return {
    name,
    protocol: 'oidc',
    domains: [`${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example.org`],
    metadata_url: `${process.env.E2E_AGENCY_KEYCLOAK_URL ?? process.env.E2E_KEYCLOAK_URL}/realms/agency/.well-known/openid-configuration`,
    client_id: 'rotunda',
    client_secret: 'agency-client-secret',
  };
}

/** The admin log's newest entry: every change of a list or a role writes one. */
async function newestAdminLogEntry(): Promise<unknown> {
  const [entry] = await json<{ id: number }[]>(
    await api.get('/api/admin/log', { headers: await asAdmin(), params: { limit: 1 } }),
  );
  return entry ?? null;
}

/** What a suspended member's every write answers: the suspension's end and reason. */
const SUSPENDED_MESSAGE = /^Your account is suspended until [A-Z][a-z]+ \d{1,2}, \d{4}: /;

/** Suspends a member through the REST call, and waits until the gateway's snapshot holds it (about a second). */
async function suspend(member: Member, reason: string): Promise<void> {
  await json(
    await api.post('/api/moderation/suspensions', {
      headers: await asContributor(),
      data: { user_id: member.session.user.user_id, days: 1, reason },
    }),
    201,
  );
  await expect
    .poll(
      async () =>
        (
          await json<{ suspension: unknown }>(
            await api.get('/api/moderation/me', { headers: await member.session.headers() }),
          )
        ).suspension,
      { timeout: 10_000 },
    )
    .not.toBeNull();
}

// ------------------------------------------------------------------------------------------- set-up

/**
 * Unclaimed profiles with no claim waiting and a picture, other than the one the demo newbie matches, newest first,
 * complete enough to edit (edits require a bio: the contributor writes one where it is missing, since the specs
 * run before this one may have taken the seeded profiles that had one).
 */
async function withBio(profile: ApiProfile): Promise<ApiProfile> {
  const saved = await api.post(`/api/profiles/bio/${profile.profile_id}`, {
    headers: await asContributor(),
    data: { user_bio: `Kept by the Concierge team (${RUN}).` },
  });
  expect(saved.status(), `bio of unclaimed profile ${profile.profile_id}: ${await saved.text()}`).toBe(200);
  return readProfile(profile.profile_id);
}

async function unclaimedProfiles(count: number): Promise<ApiProfile[]> {
  const found: ApiProfile[] = [];
  for (let offset = 0; found.length < count && offset < 1_000; offset += 100) {
    const page = await json<{ profiles: { profile_id: number }[] }>(
      await api.get('/api/profiles/search', {
        headers: await asContributor(),
        params: { offset, limit: 100 },
      }),
    );
    if (page.profiles.length === 0) break;
    for (const card of page.profiles.sort((a, b) => b.profile_id - a.profile_id)) {
      const profile = await readProfile(card.profile_id);
      if (
        profile.user_id === null &&
        !profile.claim_pending &&
        profile.work_email !== DEMO.newbie.email &&
        profile.profile_picture
      )
        found.push(profile.user_bio ? profile : await withBio(profile));
      if (found.length === count) break;
    }
  }
  expect(found.length, 'unclaimed demo profiles to work on').toBe(count);
  return found;
}

async function setUp(request: APIRequestContext): Promise<Fixtures> {
  const owner = await newMember(
    request,
    { firstName: 'Olive', lastName: `Owner${RUN}` },
    { withProfile: true },
  );
  const other = await newMember(
    request,
    { firstName: 'Otto', lastName: `Other${RUN}` },
    { withProfile: true },
  );
  const claimant = await newMember(
    request,
    { firstName: 'Clara', lastName: `Claimant${RUN}` },
    { withProfile: false },
  );
  const suspended = await newMember(
    request,
    { firstName: 'Sid', lastName: `Suspended${RUN}` },
    { withProfile: true },
  );
  const contributor = await ApiSession.logIn(request, DEMO.concierge);
  const admin = await ApiSession.logIn(request, DEMO.admin);
  const doomedBetaEmail = `authz-doomed-${RUN}@beta.example.org`;
  await json(
    await request.post('/api/admin/access', {
      headers: await admin.headers(),
      data: { list: 'beta_emails', value: doomedBetaEmail },
    }),
  );
  const { available: agenciesAvailable } = await json<{ available: boolean }>(
    await request.get('/api/admin/agencies', { headers: await admin.headers() }),
  );
  const doomedAgency = agenciesAvailable
    ? (
        await json<{ alias: string }>(
          await request.post('/api/admin/agencies', {
            headers: await admin.headers(),
            data: agencyBody(`Authz ${RUN} doomed`),
          }),
          201,
        )
      ).alias
    : null;
  const ownerProfile = owner.profile as ApiProfile;
  const as = (m: Member) => m.session.headers();

  const postType =
    (
      await json<{ posttype_id: number; post_type: string }[]>(await request.get('/api/posts/post-types'))
    ).find((type) => type.post_type !== 'EVENT')?.posttype_id ?? 1;
  const addPost = async (title: string) =>
    (
      await json<FeedPost>(
        await request.post('/api/posts/add-post', {
          headers: await as(owner),
          data: { post_title: `Authz ${RUN} ${title}`, post_body: '<p>authz</p>', post_type: postType },
        }),
        201,
      )
    ).post_id;
  const post = await addPost('kept');
  const doomedPost = await addPost('doomed');
  const reportedPost = (
    await json<FeedPost>(
      await request.post('/api/posts/add-post', {
        headers: await as(suspended),
        data: { post_title: `Authz ${RUN} reported`, post_body: '<p>buy now</p>', post_type: postType },
      }),
      201,
    )
  ).post_id;
  const addComment = async (body: string) =>
    (
      await json<{ comment_id: number }>(
        await request.post('/api/posts/add-comment', {
          headers: await as(owner),
          data: { post_id: post, comment_body: body },
        }),
        201,
      )
    ).comment_id;
  const comment = await addComment('kept');
  const doomedComment = await addComment('doomed');

  const organizationName = `Authz Target ${RUN}`;
  const organization = await json<{ organization_id: number }>(
    await request.post('/api/orgs/add-organization', {
      headers: await as(owner),
      data: { organization_name: organizationName, group_type: 'Other', street_address: '1 Capitol Mall' },
    }),
    201,
  );
  const water = await organizationIdNamed(request, await owner.session.token(), WATER);
  const division =
    (
      await json<{ division_id: number }[]>(
        await request.get(`/api/orgs/divisions/${water}`, { headers: await as(owner) }),
      )
    )[0]?.division_id ?? 0;
  const addJob = async (title: string) =>
    (
      await json<{ job_id: number }>(
        await request.post('/api/profiles/add-job', {
          headers: await as(owner),
          data: {
            profile_id: ownerProfile.profile_id,
            title,
            organization_id: water,
            street_address: '1416 9th Street',
            city: 'Sacramento',
            state: 'CA',
            zip_code: '95814',
            start_date: '2015-01-01',
            end_date: '2016-01-01',
            current_job: false,
          },
        }),
        201,
      )
    ).job_id;
  const job = await addJob('Kept job');
  await json(
    await request.post(`/api/profiles/bio/${ownerProfile.profile_id}`, {
      headers: await as(owner),
      data: { user_bio: 'Kept bio' },
    }),
  );
  const doomedJob = await addJob('Doomed job');

  const issues = await json<{ issue_id: number }[]>(
    await request.get('/api/issues', { headers: await as(owner) }),
  );
  const [taken, free] = issues.map((issue) => issue.issue_id);
  const userIssue = (
    await json<{ id: number }>(
      await request.post('/api/issues/add-user-issue', {
        headers: await as(owner),
        data: { profile_id: ownerProfile.profile_id, issue_id: taken },
      }),
      201,
    )
  ).id;

  fx = {
    owner,
    other,
    claimant,
    suspended,
    reportedPost,
    contributor,
    admin,
    doomedBetaEmail,
    agencies: agenciesAvailable,
    doomedAgency,
    ownerProfile,
    post,
    doomedPost,
    comment,
    doomedComment,
    organization: { id: organization.organization_id, name: organizationName },
    water,
    division,
    job,
    doomedJob,
    userIssue,
    freeIssue: free as number,
    postType,
    password: {
      owner: owner.account.password,
      other: other.account.password,
      contributor: DEMO.concierge.password,
      admin: DEMO.admin.password,
      suspended: suspended.account.password,
    },
    // Filled below, once the contributor can read profiles.
    unclaimed: ownerProfile,
    claimed: ownerProfile,
    secondClaim: ownerProfile,
  };
  await suspend(suspended, `Authz ${RUN}: repeated spam`);
  const [unclaimed, claimed, secondClaim] = await unclaimedProfiles(3);
  Object.assign(fx, {
    unclaimed,
    claimed,
    secondClaim,
    ownerProfile: await readProfile(ownerProfile.profile_id),
  });
  return fx;
}

// ------------------------------------------------------------------------------------------- the tests

test('the table lists every write route the gateway serves, and only those', () => {
  const served = routeTable().filter(isWrite).map(routeKey);
  const servedReads = routeTable()
    .filter((route) => !isWrite(route))
    .map(routeKey);
  const tableReads = [
    'GET /auth/beta-access',
    'GET /auth/approved-emails',
    'GET /api/profiles/claims',
    'GET /api/history/profile/:id',
    'GET /api/history/organization/:id',
    'GET /api/reports',
    'GET /api/reports/mine',
    'GET /api/moderation/log',
    'GET /api/moderation/me',
    'GET /api/admin/access',
    'GET /api/admin/log',
    'GET /api/admin/agencies',
    'GET /api/notifications',
    'GET /api/notifications/preferences',
    'GET /api/me/export',
  ];
  expect(
    tableReads.filter((key) => !servedReads.includes(key)),
    'reads in MATRIX the gateway does not serve',
  ).toEqual([]);
  const listed = Object.keys(MATRIX);
  expect(
    served.filter((key) => !listed.includes(key)),
    'write routes missing from MATRIX',
  ).toEqual([]);
  expect(
    listed.filter((key) => !served.includes(key) && !tableReads.includes(key)),
    'MATRIX rows for routes the gateway does not serve',
  ).toEqual([]);
});

// One test: the accounts are made once (registration and logins are rate-limited), and every case reports on
// its own (soft assertions) in a step named after it.
test('each write route allows exactly its callers, and a refused call changes nothing', async ({
  playwright,
}, testInfo) => {
  test.setTimeout(300_000);
  api = await playwright.request.newContext({ baseURL: String(testInfo.project.use.baseURL) });
  await test.step('set up: four new members (three with profiles, one suspended), the Concierge, the administrator, posts, comments, jobs, issues', async () => {
    await setUp(api);
  });

  await test.step('a pending claimant may neither change the profile nor post as it', async () => {
    const claimant = fx.claimant;
    const claimedProfile = await json<ApiProfile>(
      await api.post(`/api/profiles/claim/${fx.claimed.profile_id}`, {
        headers: await claimant.session.headers(),
        data: {},
      }),
    );
    expect
      .soft(claimedProfile.claim_pending, "a claim whose email differs from the profile's waits for review")
      .toBe(true);
    const queue = await json<{ claim_id: number; profile_id: number }[]>(
      await api.get('/api/profiles/claims', { headers: await asContributor() }),
    );
    pendingClaimId = queue.find((c) => c.profile_id === fx.claimed.profile_id)?.claim_id ?? 0;
    expect(pendingClaimId, "the claim is in the contributors' queue").toBeGreaterThan(0);
    const pending = await readProfile(fx.claimed.profile_id);
    const attempts: [string, Call][] = [
      [
        'edit its details',
        {
          path: '/api/profiles/update-profile',
          data: { profile_id: fx.claimed.profile_id, mobile_phone: '9165550199' },
        },
      ],
      [
        'edit its bio',
        { path: `/api/profiles/bio/${fx.claimed.profile_id}`, data: { user_bio: 'Claimed, not confirmed' } },
      ],
      [
        'add a job',
        {
          path: '/api/profiles/add-job',
          data: { profile_id: fx.claimed.profile_id, ...jobFields('Pending job') },
        },
      ],
      [
        'add an issue',
        {
          path: '/api/issues/add-user-issue',
          data: { profile_id: fx.claimed.profile_id, issue_id: fx.freeIssue },
        },
      ],
      [
        'change its picture',
        {
          path: '/api/profiles/upload-profile-picture',
          multipart: { profile_picture: PNG(), profile_id: String(fx.claimed.profile_id), image_type: 'png' },
        },
      ],
    ];
    for (const [what, call] of attempts) {
      const headers = await claimant.session.headers();
      const answer = await api.fetch(call.path, {
        method: 'POST',
        headers,
        data: call.data,
        multipart: call.multipart,
      });
      expect
        .soft([403, 409], `the pending claimant may not ${what}: ${answer.status()} ${await answer.text()}`)
        .toContain(answer.status());
      expect
        .soft(await readProfile(fx.claimed.profile_id), `${what}: the profile is unchanged`)
        .toEqual(pending);
    }
    const postsBefore = await runPosts();
    const posted = await api.post('/api/posts/add-post', {
      headers: await claimant.session.headers(),
      data: {
        post_title: `Authz ${RUN} by a pending claimant`,
        post_body: '<p>as them</p>',
        post_type: fx.postType,
      },
    });
    expect
      .soft([403, 409], `the pending claimant may not post as the profile: ${posted.status()}`)
      .toContain(posted.status());
    const commented = await api.post('/api/posts/add-comment', {
      headers: await claimant.session.headers(),
      data: { post_id: fx.post, comment_body: 'as them' },
    });
    expect
      .soft([403, 409], `the pending claimant may not comment as the profile: ${commented.status()}`)
      .toContain(commented.status());
    expect.soft(await runPosts(), 'no post or comment appeared').toEqual(postsBefore);

    const second = await api.post(`/api/profiles/claim/${fx.secondClaim.profile_id}`, {
      headers: await claimant.session.headers(),
      data: {},
    });
    expect.soft(second.status(), 'a second claim by the same member: one claim per user').toBe(409);
    expect.soft(await readProfile(fx.secondClaim.profile_id)).toEqual(fx.secondClaim);
  });

  for (const [route, entry] of Object.entries(MATRIX)) {
    if (typeof entry !== 'function') continue;
    for (const testCase of entry(fx)) {
      const order = [...actorsOf(route)].sort(
        (a, b) => Number(testCase.allowed.includes(a)) - Number(testCase.allowed.includes(b)),
      );
      for (const actor of order) {
        const allowed = testCase.allowed.includes(actor);
        await test.step(`${route} on ${testCase.target} × ${actor}: ${allowed ? 'allowed' : 'refused'}`, async () => {
          const before = await testCase.read();
          const answer = await callAs(actor, testCase.call(actor));
          const status = answer.status();
          const text = await answer.text();
          if (!allowed) {
            // A suspended member's write meets the suspension first, whatever else it would have met.
            const suspendedWrite = actor === 'suspended' && !testCase.reads;
            const expected = actor === 'visitor' ? [401] : suspendedWrite ? [403] : [403, 409];
            expect
              .soft(expected, `${route} × ${actor} answered ${status}: ${text.slice(0, 200)}`)
              .toContain(status);
            if (suspendedWrite)
              expect
                .soft(messageOf(text), `${route} × suspended member: the suspension is the reason`)
                .toMatch(SUSPENDED_MESSAGE);
            expect
              .soft(await testCase.read(), `${route} × ${actor}: a refused call changes nothing`)
              .toEqual(before);
            return;
          }
          expect
            .soft(status, `${route} × ${actor} answered ${status}: ${text.slice(0, 200)}`)
            .toBeLessThan(300);
          if (status >= 300) return;
          if (testCase.writes)
            expect
              .soft(await readOnceChanged(testCase, before), `${route} × ${actor}: the call changed it`)
              .not.toEqual(before);
          await testCase.undo?.(actor, text ? JSON.parse(text) : null);
        });
      }
    }
  }

  await test.step('the rejected claim left the profile exactly as it was before the claim', async () => {
    const after = await readProfile(fx.claimed.profile_id);
    expect.soft(after).toEqual(fx.claimed);
  });
  await test.step('lifting the suspension lets the suspended member write again', async () => {
    const lifted = await api.delete(
      `/api/moderation/suspensions/${encodeURIComponent(fx.suspended.session.user.user_id)}`,
      { headers: await asContributor() },
    );
    expect(lifted.status(), await lifted.text()).toBe(204);
    await expect
      .poll(
        async () =>
          (
            await api.post('/api/posts/add-like', {
              headers: await fx.suspended.session.headers(),
              data: { post_id: fx.post, liked: true },
            })
          ).status(),
        { timeout: 10_000 },
      )
      .toBe(200);
    await callAs('suspended', { path: '/api/posts/add-like', data: { post_id: fx.post, liked: false } });
  });
  await api.dispose();
});
