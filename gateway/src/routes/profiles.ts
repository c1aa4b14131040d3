// The /api/profiles/* REST paths of spec §7 (contract.md, Profiles): members only (deciding claims, contributors
// only), bodies and parameters validated here (types, lengths, the spec's required-fields messages), then
// forwarded to the profile service over gRPC, its answers shaped with the spec's names (null for fields not
// given). The service enforces every rule again, and alone decides who may edit what (the owner, or a
// contributor while unclaimed; never the claimant of a claim still pending), and how often a member may download
// the whole directory or export a search (429 with Retry-After past that). Lists carry no personal contact
// details: only the profile page's answer has them. A directory search downloads as CSV and a person as a vCard,
// both holding only work contact details.

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type {
  Claimant,
  ClaimDecision,
  Colleague,
  DirectoryCard,
  DirectoryContact,
  Division,
  Job,
  JobFields,
  ListedProfile,
  PendingClaim,
  Profile,
  ProfileFields,
} from '@rotunda/protos/profile';
import { CONTRIBUTOR_ROLE } from '@rotunda/service-kit';
import { stringify } from 'csv-stringify';
import express, { type Request, type Router } from 'express';
import { decodeJwt } from 'jose';
import { z } from 'zod';
import { requireMember, requireRole, tokenOf } from '../auth/middleware.ts';
import { call, type ServiceClients, stream, type UnaryMethod } from '../grpc/clients.ts';
import { instant, orNull } from '../http/answers.ts';
import { attachmentDisposition } from '../http/attachment.ts';
import { HttpError } from '../http/errors.ts';
import { keyedMicroCache } from '../http/micro-cache.ts';
import { DEFAULT_UPLOAD_MESSAGES, readUpload } from '../http/multipart.ts';
import { vCard, vCardFileName } from '../http/vcard.ts';
import { optionalText, pagingParameter, parseBody, parseQuery, requireFields } from './body.ts';
import { idField, userIssueJson } from './issues.ts';

/** The largest picture upload read (the service resizes it; the result must fit 5,242,880 bytes). */
export const MAX_PICTURE_UPLOAD_BYTES = 10 * 1024 * 1024;
const MAX_ID = 2 ** 31 - 1;
/** Distinct directory searches kept at once in the gateway's memory (each a page of about 9 KB). */
const DIRECTORY_CACHE_KEYS = 1000;
/** The whole directory streams for as long as a whole state's people take to read and send. */
const WHOLE_DIRECTORY_DEADLINE_MS = 120_000;
/** Profiles are sent in pieces of about this many bytes. */
const WRITE_PIECE_BYTES = 64 * 1024;
/** Pages of the directory (spec §9: 30, growing by 30); the service refuses deeper than its index pages. */
const DIRECTORY_PAGE = { default: 30, max: 100, maxOffset: 99_900 } as const;
/** An export reads and sends up to 5,000 people. */
const EXPORT_DEADLINE_MS = 60_000;
/** The export's columns, in order (the service sends nothing else: no personal contact detail). */
const EXPORT_COLUMNS = [
  'first_name',
  'last_name',
  'title',
  'organization',
  'division',
  'work_email',
  'office_phone',
] as const;
/** Resizing a 10 MB photo and writing it takes longer than a lookup; the member waits for it. */
const UPLOAD_DEADLINE_MS = 15_000;

export const UPLOAD_MESSAGES = {
  ...DEFAULT_UPLOAD_MESSAGES,
  notMultipart:
    'Send the picture as multipart/form-data with the fields profile_picture, image_type and, for a profile, profile_id.',
  oneFile: 'Upload one picture at a time.',
  noFile: 'Please select an image to upload.',
} as const;

// ---------------------------------------------------------------------------------------------- answers

export function divisionJson(division: Division) {
  return {
    division_id: division.division_id,
    division_name: division.division_name,
    division_type: division.division_type,
    active_division: division.active_division,
    organization_id: division.organization_id,
    street_address: orNull(division.street_address),
    suite_number: orNull(division.suite_number),
    city: orNull(division.city),
    state: orNull(division.state),
    zip_code: orNull(division.zip_code),
    division_phone: orNull(division.division_phone),
    website: orNull(division.website),
  };
}

export function jobJson(job: Job) {
  return {
    job_id: job.job_id,
    profile_id: job.profile_id,
    title: job.title,
    organization_id: job.organization_id,
    division_id: orNull(job.division_id),
    street_address: job.street_address,
    suite_number: orNull(job.suite_number),
    city: job.city,
    state: job.state,
    zip_code: job.zip_code,
    start_date: job.start_date,
    end_date: orNull(job.end_date),
    current_job: job.current_job,
    Organization: {
      organization_id: job.organization?.organization_id ?? job.organization_id,
      organization_name: job.organization?.organization_name ?? '',
      group_type: job.organization?.group_type ?? '',
      logo: orNull(job.organization?.logo),
    },
    Division: job.division ? divisionJson(job.division) : null,
  };
}

function claimantJson(claimant: Claimant) {
  return {
    user_id: claimant.user_id,
    first_name: claimant.first_name,
    last_name: claimant.last_name,
    email: claimant.email,
    claimed_at: instant(claimant.claimed_at),
  };
}

/** A profile in a list (the whole directory, the create flow's matches): no personal contact details. */
export function listedProfileJson(profile: ListedProfile) {
  return {
    profile_id: profile.profile_id,
    user_id: orNull(profile.user_id),
    first_name: profile.first_name,
    last_name: profile.last_name,
    work_email: profile.work_email,
    other_phone: orNull(profile.other_phone),
    pronouns: orNull(profile.pronouns),
    profile_picture: orNull(profile.profile_picture),
    user_bio: orNull(profile.user_bio),
    lobby_filer_id: orNull(profile.lobby_filer_id),
    linkedin_url: orNull(profile.linkedin_url),
    facebook_url: orNull(profile.facebook_url),
    youtube_url: orNull(profile.youtube_url),
    threads_url: orNull(profile.threads_url),
    twitter_url: orNull(profile.twitter_url),
    instagram_url: orNull(profile.instagram_url),
    tiktok_url: orNull(profile.tiktok_url),
    bluesky_url: orNull(profile.bluesky_url),
    claim_pending: profile.claim_pending,
    claim_id: orNull(profile.claim_id),
    JobExperiences: profile.job_experiences.map(jobJson),
    UserIssues: profile.user_issues.map(userIssueJson),
  };
}

/**
 * The profile page's answer: every field, whether the pending claim is the caller's (they are shown a
 * pending-review notice), and who claims it for a contributor deciding.
 */
export function profileJson(profile: Profile) {
  return {
    ...listedProfileJson(profile),
    personal_email: orNull(profile.personal_email),
    mobile_phone: orNull(profile.mobile_phone),
    birthday: orNull(profile.birthday),
    claimed_by_you: profile.claimed_by_caller,
    claimant: profile.claimant ? claimantJson(profile.claimant) : null,
    verified_employer: profile.verified_employer,
  };
}

function pendingClaimJson(claim: PendingClaim) {
  return {
    claim_id: claim.claim_id,
    profile_id: claim.profile_id,
    first_name: claim.first_name,
    last_name: claim.last_name,
    work_email: claim.work_email,
    user_id: claim.user_id,
    created_at: instant(claim.created_at),
    claimant: claim.claimant ? claimantJson(claim.claimant) : null,
  };
}

function claimDecisionJson(claim: ClaimDecision) {
  return {
    claim_id: claim.claim_id,
    profile_id: claim.profile_id,
    status: claim.status,
    decided_at: instant(claim.decided_at),
  };
}

export function colleagueJson(colleague: Colleague) {
  return {
    profile_id: colleague.profile_id,
    title: colleague.title,
    city: colleague.city,
    state: colleague.state,
    Division: colleague.division ? divisionJson(colleague.division) : null,
    ProfileInfo: {
      profile_id: colleague.profile_info?.profile_id ?? colleague.profile_id,
      first_name: colleague.profile_info?.first_name ?? '',
      last_name: colleague.profile_info?.last_name ?? '',
      profile_picture: orNull(colleague.profile_info?.profile_picture),
      other_phone: orNull(colleague.profile_info?.other_phone),
      work_email: colleague.profile_info?.work_email ?? '',
    },
  };
}

// ------------------------------------------------------------------------------------------- validation

/** An optional id: absent or null is none; otherwise a whole number (or its digits as text). */
const optionalId = (field: string) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d*$/, `${field} must be a whole number`), z.null()], {
      error: `${field} must be a whole number`,
    })
    .optional()
    .transform((value) => (value === undefined || value === null || value === '' ? undefined : Number(value)))
    .refine(
      (value) => value === undefined || (Number.isSafeInteger(value) && value >= 1 && value <= MAX_ID),
      `${field} must be a whole number`,
    );

/** The product's forms send booleans; a form post sends 'true'/'false'. */
const flag = (field: string) =>
  z
    .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true'), z.null()], {
      error: `${field} must be true or false`,
    })
    .optional()
    .transform((value) => value === true);

const profileFields = {
  profile_picture: optionalText('profile_picture', 2048),
  first_name: optionalText('first_name', 100),
  last_name: optionalText('last_name', 100),
  work_email: optionalText('work_email', 254),
  personal_email: optionalText('personal_email', 254),
  mobile_phone: optionalText('mobile_phone', 64),
  other_phone: optionalText('other_phone', 64),
  birthday: optionalText('birthday', 10),
  pronouns: optionalText('pronouns', 32),
  linkedin_url: optionalText('linkedin_url', 2048),
  facebook_url: optionalText('facebook_url', 2048),
  youtube_url: optionalText('youtube_url', 2048),
  threads_url: optionalText('threads_url', 2048),
  twitter_url: optionalText('twitter_url', 2048),
  instagram_url: optionalText('instagram_url', 2048),
  tiktok_url: optionalText('tiktok_url', 2048),
  bluesky_url: optionalText('bluesky_url', 2048),
};

/** Create-profile step 1 and the edit form (spec §5), in the spec's order and labels. */
const PROFILE_REQUIRED = {
  profile_picture: 'Profile Picture',
  first_name: 'First Name',
  last_name: 'Last Name',
  work_email: 'Work Email',
  other_phone: 'Office Phone',
};

/** The job forms (spec §5 create job, add-job and edit-job modals), in the spec's order and labels. */
const JOB_REQUIRED = {
  title: 'Job Title',
  organization_id: 'Company',
  street_address: 'Address',
  city: 'City',
  state: 'State',
  zip_code: 'Zip Code',
  start_date: 'Start Date',
};

const jobShape = {
  title: optionalText('title', 200),
  organization_id: optionalId('organization_id'),
  division_id: optionalId('division_id'),
  street_address: optionalText('street_address'),
  suite_number: optionalText('suite_number'),
  city: optionalText('city'),
  state: optionalText('state', 32),
  zip_code: optionalText('zip_code', 16),
  start_date: optionalText('start_date', 10),
  end_date: optionalText('end_date', 10),
  current_job: flag('current_job'),
};

type JobBody = z.output<z.ZodObject<typeof jobShape>>;

/** The job forms' rules (spec §5): the required fields first, then an end date or the current box. */
function requireJob(job: JobBody, ctx: z.RefinementCtx) {
  requireFields(JOB_REQUIRED, { always: true })(job, ctx);
  if (!job.current_job && !job.end_date)
    ctx.addIssue({ code: 'custom', message: 'Please give an end date or mark the position as current' });
}

const bodies = {
  newUserCheck: z.object({
    first_name: optionalText('first_name', 100),
    last_name: optionalText('last_name', 100),
    email: optionalText('email', 254),
  }),
  // user_id and image_type are ignored: the owner is the caller, and the service judges the picture's bytes.
  createProfile: z.object(profileFields).superRefine(requireFields(PROFILE_REQUIRED, { always: true })),
  updateProfile: z
    .object({
      profile_id: idField('profile_id'),
      ...profileFields,
      lobby_filer_id: optionalText('lobby_filer_id', 32),
    })
    .superRefine(requireFields(PROFILE_REQUIRED)),
  addJob: z.object({ profile_id: idField('profile_id'), ...jobShape }).superRefine(requireJob),
  updateJob: z.object({ job_id: idField('job_id'), ...jobShape }).superRefine(requireJob),
  deleteJob: z.object({ job_id: idField('job_id') }),
  organizationColleagues: z.object({ organization_id: idField('organization_id') }),
  divisionColleagues: z.object({ division_id: idField('division_id') }),
  decideClaim: z.object({
    decision: z.enum(['confirm', 'reject'], { error: 'decision must be confirm or reject' }),
  }),
  bio: z.object({
    user_bio: z
      .string({ error: 'user_bio must be text' })
      .max(5000, 'Your bio must be at most 5000 characters.')
      .nullish(),
  }),
};

/** Only the fields the member sent: absent keeps the stored value (proto3 `optional`). */
function fieldsMessage(body: Partial<Record<keyof ProfileFields, string | undefined>>): ProfileFields {
  const fields: ProfileFields = {};
  for (const key of [...Object.keys(profileFields), 'lobby_filer_id'] as (keyof ProfileFields)[])
    if (body[key] !== undefined) fields[key] = body[key];
  return fields;
}

function jobMessage(body: JobBody): JobFields {
  return {
    title: body.title ?? '',
    organization_id: body.organization_id ?? 0,
    division_id: body.division_id,
    street_address: body.street_address ?? '',
    suite_number: body.suite_number,
    city: body.city ?? '',
    state: body.state ?? '',
    zip_code: body.zip_code ?? '',
    start_date: body.start_date ?? '',
    end_date: body.end_date || undefined,
    current_job: body.current_job,
  };
}

/** An id from the path: digits only (400 otherwise); one that cannot exist is simply not found. */
function pathIdOf(value: string | undefined, messages: { invalid: string; notFound: string }): number {
  if (!value || !/^\d+$/.test(value)) throw new HttpError(400, messages.invalid);
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) throw new HttpError(404, messages.notFound);
  return id;
}

const profileIdOf = (value: string | undefined) =>
  pathIdOf(value, { invalid: 'The profile id must be a whole number.', notFound: 'Profile not found' });
const claimIdOf = (value: string | undefined) =>
  pathIdOf(value, { invalid: 'claim_id must be a whole number', notFound: 'Claim not found' });

/**
 * The upload's optional profile_id. A browser's FormData turns a missing value into the text 'undefined' or
 * 'null'; those, like an empty field, mean "no profile yet".
 */
function uploadProfileIdOf(value: string | undefined): number | undefined {
  const text = (value ?? '').trim();
  if (text === '' || text === 'undefined' || text === 'null') return undefined;
  const id = idField('profile_id').safeParse(text);
  if (!id.success) throw new HttpError(400, 'profile_id must be a whole number');
  return id.data;
}

const directoryQuery = z.object({
  search: z.string({ error: 'search must be given once, as text' }).max(200, 'search is too long').optional(),
  group: z.string({ error: 'group must be given once, as text' }).max(64, 'group is too long').optional(),
  issue: pagingParameter('issue', 1, MAX_ID),
  offset: pagingParameter('offset', 0, DIRECTORY_PAGE.maxOffset),
  limit: pagingParameter('limit', 1, DIRECTORY_PAGE.max),
});

/**
 * The member's names as their access token has them. Read only after `authenticate` verified that token, so its
 * claims are the identity provider's; a name missing from it is sent empty.
 */
function claimantNamesOf(req: Request): { first: string; last: string } {
  const token = tokenOf(req);
  const claims = token ? decodeJwt(token) : {};
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { first: text(claims.given_name), last: text(claims.family_name) };
}

/** One row of the export, in EXPORT_COLUMNS' order; empty where not given. */
function exportRow(contact: DirectoryContact): string[] {
  return [
    contact.first_name,
    contact.last_name,
    contact.title ?? '',
    contact.organization_name ?? '',
    contact.division_name ?? '',
    contact.work_email,
    contact.office_phone ?? '',
  ];
}

/** The search as the service takes it: words single-spaced, filters left out when not given. */
function searchRequestOf(query: z.output<typeof directoryQuery>) {
  return {
    search: (query.search ?? '').trim().replace(/\s+/g, ' '),
    group: query.group ?? '',
    ...(query.issue === undefined ? {} : { issue_id: query.issue }),
  };
}

/** A directory card with the spec's snake_case names; null where not given. */
function directoryCardJson(card: DirectoryCard) {
  return {
    profile_id: card.profile_id,
    first_name: card.first_name,
    last_name: card.last_name,
    profile_picture: card.profile_picture ?? null,
    title: card.title ?? null,
    organization_name: card.organization_name ?? null,
    division_name: card.division_name ?? null,
    group_type: card.group_type ?? null,
    city: card.city ?? null,
    state: card.state ?? null,
    verified_employer: card.verified_employer,
  };
}

// ------------------------------------------------------------------------------------------------ router

export function profilesRouter(
  clients: Pick<ServiceClients, 'profile' | 'deadlineMs'>,
  directoryCacheSeconds: number,
): Router {
  const router = express.Router();
  const { profile } = clients;
  const rpc = <Req, Res>(
    req: Request,
    method: UnaryMethod<Req, Res>,
    request: Req,
    deadlineMs = clients.deadlineMs,
  ) =>
    call('profile', profile, method, request, {
      requestId: req.id as string,
      deadlineMs,
      caller: req.caller,
    });

  const searchCache = keyedMicroCache<Buffer>(directoryCacheSeconds * 1000, DIRECTORY_CACHE_KEYS);

  // People and their details are for members (spec §6): every path below needs a valid access token.
  router.use(requireMember);

  // As built: every profile as one JSON array. Streamed from the service and written as it arrives, so the
  // gateway never holds a whole state's directory; a failure before the first profile answers as usual.
  router.get('/directory', async (req, res) => {
    const profiles = stream(
      'profile',
      profile,
      profile.listDirectory,
      {},
      {
        requestId: req.id as string,
        deadlineMs: Math.max(clients.deadlineMs, WHOLE_DIRECTORY_DEADLINE_MS),
        caller: req.caller,
      },
    );
    let next = await profiles.next();
    const gone = new Promise<void>((resolve) => res.once('close', resolve));
    // One 'drain' listener for the whole answer: `compression` wraps the response's `on` but not its
    // `removeListener`, so a listener per wait (events.once) would pile up until the answer ends.
    let drained = () => {};
    res.on('drain', () => drained());
    res.type('application/json');
    let piece = '[';
    try {
      for (let first = true; !next.done; first = false, next = await profiles.next()) {
        piece += `${first ? '' : ','}${JSON.stringify(listedProfileJson(next.value))}`;
        if (piece.length < WRITE_PIECE_BYTES) continue;
        if (!res.write(piece))
          await Promise.race([new Promise<void>((resolve) => (drained = resolve)), gone]);
        piece = '';
        if (res.destroyed) return;
      }
      res.end(`${piece}]`);
    } catch (error) {
      // The answer has begun: it can only be cut short, which the client sees as a broken download.
      req.log.error({ err: error }, 'the whole directory could not be sent');
      res.destroy();
    } finally {
      await profiles.return(undefined);
    }
  });

  // Every member gets the same page for the same query: a page is shared for a moment (ADR 0013), so the crowd
  // opening the directory, or clicking the same filter, costs one search.
  router.get('/search', async (req, res) => {
    const query = parseQuery(directoryQuery, req.query);
    const request = {
      ...searchRequestOf(query),
      offset: query.offset ?? 0,
      limit: query.limit ?? DIRECTORY_PAGE.default,
    };
    const load = async () => {
      const answer = await rpc(req, profile.searchDirectory, request);
      return Buffer.from(
        JSON.stringify({
          profiles: answer.profiles.map(directoryCardJson),
          total: answer.total,
          total_is_lower_bound: answer.total_is_lower_bound,
          offset: request.offset,
          limit: request.limit,
        }),
      );
    };
    const page =
      directoryCacheSeconds > 0 ? await searchCache.get(JSON.stringify(request), load) : await load();
    // Written as it is, without the ETag res.send would hash for every page: a page the browser may not store is
    // never revalidated.
    res.setHeader('Cache-Control', 'private, no-store');
    res.type('application/json');
    res.setHeader('Content-Length', page.length);
    res.end(page);
  });

  // The directory search as a spreadsheet: the same parameters (offset and limit are checked alike but the export
  // starts at the first person), every match up to 5,000 in the directory's order. The service counts it against
  // the member's downloads (429 with Retry-After); a refusal comes before the first row, so it answers as usual.
  router.get('/search/export.csv', async (req, res) => {
    const request = searchRequestOf(parseQuery(directoryQuery, req.query));
    const contacts = stream('profile', profile, profile.exportDirectory, request, {
      requestId: req.id as string,
      deadlineMs: Math.max(clients.deadlineMs, EXPORT_DEADLINE_MS),
      caller: req.caller,
    });
    const first = await contacts.next();
    async function* rows() {
      if (first.done) return;
      yield exportRow(first.value);
      for await (const contact of contacts) yield exportRow(contact);
    }
    res.setHeader(
      'Content-Disposition',
      attachmentDisposition(`rotunda-directory-${new Date().toISOString().slice(0, 10)}.csv`),
    );
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Cache-Control', 'private, no-store');
    try {
      await pipeline(
        Readable.from(rows()),
        stringify({
          header: true,
          columns: [...EXPORT_COLUMNS],
          // RFC 4180: CRLF between records; fields with a comma, quote or line break quoted, quotes doubled
          // (csv-stringify quotes a bare CR or LF only when told: it looks for the record delimiter, CRLF).
          record_delimiter: 'windows',
          quoted_match: /[\r\n]/,
          // UTF-8 with a byte order mark: without it, spreadsheet apps read the file in the system's legacy code
          // page and garble every accented name.
          bom: true,
          // A cell starting with = + - @ tab or CR is prefixed with ' so a spreadsheet shows it rather than
          // running it as a formula (OWASP's CSV injection advice).
          escape_formulas: true,
        }),
        res,
      );
    } catch (error) {
      // The answer has begun: it can only be cut short, which the client sees as a broken download.
      if (!res.destroyed) req.log.error({ err: error }, 'the directory export could not be sent');
      res.destroy();
    } finally {
      await contacts.return(undefined);
    }
  });

  router.post('/new-user-check', async (req, res) => {
    const body = parseBody(bodies.newUserCheck, req);
    const answer = await rpc(req, profile.findUnclaimedMatches, {
      first_name: body.first_name ?? '',
      last_name: body.last_name ?? '',
      email: body.email ?? '',
    });
    res.json(answer.profiles.map(listedProfileJson));
  });

  // The member's profile, or the one their pending claim waits on (claim_pending: true), where the create flow
  // sends them.
  router.get('/user-check', async (req, res) => {
    const answer = await rpc(req, profile.userCheck, {});
    res.json(
      answer.profiles.map((owned) => ({
        user_id: owned.user_id,
        profile_id: owned.profile_id,
        claim_pending: owned.claim_pending,
      })),
    );
  });

  router.post('/create-profile', async (req, res) => {
    const body = parseBody(bodies.createProfile, req);
    const answer = await rpc(req, profile.createProfile, { fields: fieldsMessage(body) });
    res.status(201).json({ createdProfileResult: profileJson(answer) });
  });

  router.post('/upload-profile-picture', async (req, res) => {
    const upload = await readUpload(req, {
      fileField: 'profile_picture',
      maxFileBytes: MAX_PICTURE_UPLOAD_BYTES,
      messages: UPLOAD_MESSAGES,
    });
    if (!upload.file || upload.file.length === 0) throw new HttpError(400, UPLOAD_MESSAGES.noFile);
    // image_type is the browser's guess from the file name; the service judges the bytes instead.
    const answer = await rpc(
      req,
      profile.uploadPicture,
      { image: upload.file, profile_id: uploadProfileIdOf(upload.fields.profile_id) },
      Math.max(clients.deadlineMs, UPLOAD_DEADLINE_MS),
    );
    res.json({ url: answer.url });
  });

  router.get('/profile/:id', async (req, res) => {
    const answer = await rpc(req, profile.getProfile, { profile_id: profileIdOf(req.params.id) });
    res.json(profileJson(answer));
  });

  // The person's work contact as a vCard 4.0 an address book imports.
  router.get('/profile/:id/vcard', async (req, res) => {
    const contact = await rpc(req, profile.getContactCard, { profile_id: profileIdOf(req.params.id) });
    const card = {
      firstName: contact.first_name,
      lastName: contact.last_name,
      title: contact.title ?? null,
      organizationName: contact.organization_name ?? null,
      divisionName: contact.division_name ?? null,
      workEmail: contact.work_email,
      officePhone: contact.office_phone ?? null,
    };
    res.setHeader('Content-Disposition', attachmentDisposition(vCardFileName(card)));
    res.setHeader('Content-Type', 'text/vcard; charset=utf-8');
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(vCard(card));
  });

  router.post('/update-profile', async (req, res) => {
    const body = parseBody(bodies.updateProfile, req);
    const answer = await rpc(req, profile.updateProfile, {
      profile_id: body.profile_id,
      fields: fieldsMessage(body),
    });
    res.json(profileJson(answer));
  });

  // The spec's client also sends { profile_id, user_id }: the path names the profile, the token the member (and
  // the names the contributors deciding the claim see).
  router.post('/claim/:profile_id', async (req, res) => {
    const names = claimantNamesOf(req);
    const answer = await rpc(req, profile.claimProfile, {
      profile_id: profileIdOf(req.params.profile_id),
      claimant_first_name: names.first,
      claimant_last_name: names.last,
    });
    res.json(profileJson(answer));
  });

  // A contributor confirms or rejects members' claims (the service checks the role again).
  router.use('/claims', requireRole(CONTRIBUTOR_ROLE));

  router.get('/claims', async (req, res) => {
    const answer = await rpc(req, profile.listPendingClaims, {});
    res.json(answer.claims.map(pendingClaimJson));
  });

  router.post('/claims/:claim_id', async (req, res) => {
    const claim_id = claimIdOf(req.params.claim_id);
    const { decision } = parseBody(bodies.decideClaim, req);
    res.json(claimDecisionJson(await rpc(req, profile.decideClaim, { claim_id, decision })));
  });

  router.post('/add-job', async (req, res) => {
    const body = parseBody(bodies.addJob, req);
    const answer = await rpc(req, profile.addJob, { profile_id: body.profile_id, fields: jobMessage(body) });
    res.status(201).json(jobJson(answer));
  });

  router.post('/update-job', async (req, res) => {
    const body = parseBody(bodies.updateJob, req);
    const answer = await rpc(req, profile.updateJob, { job_id: body.job_id, fields: jobMessage(body) });
    res.json(jobJson(answer));
  });

  router.delete('/delete-job', async (req, res) => {
    const body = parseBody(bodies.deleteJob, req);
    await rpc(req, profile.deleteJob, { job_id: body.job_id });
    res.status(204).end();
  });

  router.post('/organization-colleagues', async (req, res) => {
    const body = parseBody(bodies.organizationColleagues, req);
    const answer = await rpc(req, profile.listOrganizationColleagues, {
      organization_id: body.organization_id,
    });
    res.json(answer.colleagues.map(colleagueJson));
  });

  router.post('/division-colleagues', async (req, res) => {
    const body = parseBody(bodies.divisionColleagues, req);
    const answer = await rpc(req, profile.listDivisionColleagues, { division_id: body.division_id });
    res.json(answer.colleagues.map(colleagueJson));
  });

  router.post('/bio/:profile_id', async (req, res) => {
    const profile_id = profileIdOf(req.params.profile_id);
    const body = parseBody(bodies.bio, req);
    const answer = await rpc(req, profile.setBio, { profile_id, user_bio: body.user_bio ?? '' });
    res.json(profileJson(answer));
  });

  return router;
}
