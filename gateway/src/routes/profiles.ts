// The /api/profiles/* REST paths of docs/product.md#7-the-calls-it-makes (docs/api.md, Profiles): members
// only (deciding claims, contributors only), bodies and parameters checked here for their types and lengths
// (profile-bodies.ts), then forwarded to the profile service over gRPC, its answers shaped with the spec's
// names (profile-answers.ts). The service owns the forms' rules and enforces every one (its refusals reach
// the member as it words them), and alone decides who may edit what (the owner, or a contributor while
// unclaimed; never the claimant of a claim still pending), and how often a member may download the whole
// directory or export a search (429 with Retry-After past that). Lists carry no personal contact details:
// only the profile page's answer has them, so reading other members' profile pages (and their vCards) is
// counted per member by the auth service (ConsumeQuota 'profile-read'; 429 with Retry-After past it), and a
// member's own profile never counts. A directory search downloads as CSV and a person as a vCard, both
// holding only work contact details. Picture uploads pass their admission before their body is read. Every
// change is refused to a suspended member before anything else is checked (refuseSuspended, ADR 0041).
import { BIO_FIELD, waitInWords } from '@rotunda/rules';
import { CONTRIBUTOR_ROLE } from '@rotunda/service-kit';
import express, { type Request, type Router } from 'express';
import { callerOf, refuseSuspended, requireMember, requireRole } from '../auth/middleware.ts';
import { type ServiceClients, stream } from '../grpc/clients.ts';
import { callContextOf, serviceCaller } from '../grpc/request-calls.ts';
import { attachmentDisposition } from '../http/attachment.ts';
import { sendCsv } from '../http/csv.ts';
import { HttpError } from '../http/errors.ts';
import { sendJsonArray } from '../http/json-array.ts';
import { keyedMicroCache } from '../http/micro-cache.ts';
import { DEFAULT_UPLOAD_MESSAGES, readUpload } from '../http/multipart.ts';
import type { UploadAdmission } from '../http/upload-admission.ts';
import { parseBody, parseQuery } from '../http/validation.ts';
import { vCard, vCardFileName } from '../http/vcard.ts';
import {
  claimDecisionJson,
  colleagueJson,
  directoryCardJson,
  EXPORT_COLUMNS,
  exportRow,
  jobJson,
  listedProfileJson,
  pendingClaimJson,
  profileJson,
} from './profile-answers.ts';
import {
  bodies,
  claimantNamesOf,
  claimIdOf,
  DIRECTORY_PAGE,
  directoryQuery,
  fieldsMessage,
  jobMessage,
  profileIdOf,
  searchRequestOf,
  uploadProfileIdOf,
} from './profile-bodies.ts';

/** The largest picture upload read (the service resizes it; the result must fit 5,242,880 bytes). */
export const MAX_PICTURE_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Distinct directory searches kept at once in the gateway's memory (each a page of about 9 KB). */
const DIRECTORY_CACHE_KEYS = 1000;
/** The whole directory streams for as long as a whole state's people take to read and send. */
const WHOLE_DIRECTORY_DEADLINE_MS = 120_000;
/** An export reads and sends up to 5,000 people. */
const EXPORT_DEADLINE_MS = 60_000;
/** Resizing a 10 MB photo and writing it takes longer than a lookup; the member waits for it. */
const UPLOAD_DEADLINE_MS = 15_000;

export const UPLOAD_MESSAGES = {
  ...DEFAULT_UPLOAD_MESSAGES,
  notMultipart:
    'Send the picture as multipart/form-data with the fields profile_picture, image_type and, for a profile, profile_id.',
  oneFile: 'Upload one picture at a time.',
  noFile: 'Please select an image to upload.',
} as const;

export const tooManyProfileReads = (wait: string) =>
  `You have opened too many profiles in a short time. Try again in ${wait}.`;

export function profilesRouter(
  clients: Pick<ServiceClients, 'profile' | 'auth' | 'deadlineMs'>,
  directoryCacheSeconds: number,
  uploads: UploadAdmission,
): Router {
  const router = express.Router();
  const { profile } = clients;
  const rpc = serviceCaller(clients, 'profile');
  const authRpc = serviceCaller(clients, 'auth');

  /** Counts a read of someone else's profile against the member's allowance; 429 with Retry-After past it. */
  const countRead = async (req: Request) => {
    const { retry_after_seconds: wait } = await authRpc(req, clients.auth.consumeQuota, {
      quota: 'profile-read',
    });
    if (wait > 0) throw new HttpError(429, tooManyProfileReads(waitInWords(wait)), wait);
  };

  const searchCache = keyedMicroCache<Buffer>(directoryCacheSeconds * 1000, DIRECTORY_CACHE_KEYS);

  // People and their details are for members (docs/product.md#6-roles-and-permissions): every path below
  // needs a valid access token.
  router.use(requireMember);

  // As built: every profile as one JSON array. Streamed from the service and written as it arrives, so the
  // gateway never holds a whole state's directory; a failure before the first profile answers as usual.
  router.get('/directory', async (req, res) => {
    const profiles = stream(
      'profile',
      profile,
      profile.listDirectory,
      {},
      callContextOf(req, Math.max(clients.deadlineMs, WHOLE_DIRECTORY_DEADLINE_MS)),
    );
    await sendJsonArray(req, res, profiles, listedProfileJson, 'the whole directory');
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
    const contacts = stream(
      'profile',
      profile,
      profile.exportDirectory,
      request,
      callContextOf(req, Math.max(clients.deadlineMs, EXPORT_DEADLINE_MS)),
    );
    await sendCsv(req, res, contacts, {
      fileName: `rotunda-directory-${new Date().toISOString().slice(0, 10)}.csv`,
      columns: EXPORT_COLUMNS,
      rowOf: exportRow,
      what: 'the directory export',
    });
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

  router.post('/create-profile', refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.createProfile, req);
    const answer = await rpc(req, profile.createProfile, { fields: fieldsMessage(body) });
    res.status(201).json({ createdProfileResult: profileJson(answer) });
  });

  router.post('/upload-profile-picture', refuseSuspended, async (req, res) => {
    const upload = await readUpload(req, {
      fileField: 'profile_picture',
      maxFileBytes: MAX_PICTURE_UPLOAD_BYTES,
      messages: UPLOAD_MESSAGES,
      admit: () => uploads.admit(req),
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

  // Whose profile it is shows only in the answer: it is counted once read, and withheld when over the allowance.
  // The member's own, or the one their claim waits on, never counts.
  router.get('/profile/:id', async (req, res) => {
    const answer = await rpc(req, profile.getProfile, { profile_id: profileIdOf(req.params.id) });
    if (answer.user_id !== callerOf(req).userId && !answer.claimed_by_caller) await countRead(req);
    res.json(profileJson(answer));
  });

  // The person's work contact as a vCard 4.0 an address book imports. A card names no owner: the member's own
  // profiles (user-check's) are asked alongside, so their own card is not counted either.
  router.get('/profile/:id/vcard', async (req, res) => {
    const [contact, own] = await Promise.all([
      rpc(req, profile.getContactCard, { profile_id: profileIdOf(req.params.id) }),
      rpc(req, profile.userCheck, {}),
    ]);
    if (!own.profiles.some((owned) => owned.profile_id === contact.profile_id)) await countRead(req);
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

  router.post('/update-profile', refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.updateProfile, req);
    const answer = await rpc(req, profile.updateProfile, {
      profile_id: body.profile_id,
      fields: fieldsMessage(body),
    });
    res.json(profileJson(answer));
  });

  // The spec's client also sends { profile_id, user_id }: the path names the profile, the token the member (and
  // the names the contributors deciding the claim see).
  router.post('/claim/:profile_id', refuseSuspended, async (req, res) => {
    const names = claimantNamesOf(req);
    const answer = await rpc(req, profile.claimProfile, {
      profile_id: profileIdOf(req.params.profile_id),
      claimant_first_name: names.first,
      claimant_last_name: names.last,
    });
    res.json(profileJson(answer));
  });

  // A contributor confirms or rejects members' claims (the service checks the role again).
  router.get('/claims', requireRole(CONTRIBUTOR_ROLE), async (req, res) => {
    const answer = await rpc(req, profile.listPendingClaims, {});
    res.json(answer.claims.map(pendingClaimJson));
  });

  // A suspended member is told so before anything else, the role included.
  router.post('/claims/:claim_id', refuseSuspended, requireRole(CONTRIBUTOR_ROLE), async (req, res) => {
    const claim_id = claimIdOf(req.params.claim_id as string);
    const { decision } = parseBody(bodies.decideClaim, req);
    res.json(claimDecisionJson(await rpc(req, profile.decideClaim, { claim_id, decision })));
  });

  router.post('/add-job', refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.addJob, req);
    const answer = await rpc(req, profile.addJob, { profile_id: body.profile_id, fields: jobMessage(body) });
    res.status(201).json(jobJson(answer));
  });

  router.post('/update-job', refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.updateJob, req);
    const answer = await rpc(req, profile.updateJob, { job_id: body.job_id, fields: jobMessage(body) });
    res.json(jobJson(answer));
  });

  router.delete('/delete-job', refuseSuspended, async (req, res) => {
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

  router.post('/bio/:profile_id', refuseSuspended, async (req, res) => {
    const profile_id = profileIdOf(req.params.profile_id);
    const body = parseBody(bodies.bio, req);
    const answer = await rpc(req, profile.setBio, { profile_id, [BIO_FIELD]: body[BIO_FIELD] ?? '' });
    res.json(profileJson(answer));
  });

  return router;
}
