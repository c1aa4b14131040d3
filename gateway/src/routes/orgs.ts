// The /api/orgs/* REST paths of docs/product.md#7-the-calls-it-makes (docs/api.md): members only (the
// organization directory is members-only, docs/product.md#6-roles-and-permissions), bodies and parameters
// validated here, then forwarded to the org service over gRPC, its answers shaped with the spec's snake_case
// names. Updates and logo uploads take the contributor role, and so does giving a Cal-Access ID when adding;
// names must contain letters. The service owns the form's rules (the required fields among them) and enforces
// every rule again; its refusals reach the member as it words them. Every change is refused to a suspended
// member before anything else is checked (refuseSuspended, ADR 0041).
import type {
  AddDivisionRequest,
  Organization,
  OrganizationFields as OrganizationFieldsMessage,
} from '@rotunda/protos/org';
import {
  CAL_ACCESS_MESSAGES,
  cleanEmailDomains,
  DIVISION_FIELD_NAMES,
  DIVISION_FIELDS,
  type DivisionFieldName,
  EMAIL_DOMAIN_LABEL,
  isCalAccessId,
  NAME_LABELS,
  nameProblem,
  ORGANIZATION_FIELD_NAMES,
  ORGANIZATION_FIELDS,
  type OrganizationFieldName,
  type OrganizationFieldSpec,
} from '@rotunda/rules';
import { CONTRIBUTOR_ROLE, isContributor } from '@rotunda/service-kit';
import express, { type Router } from 'express';
import { z } from 'zod';
import { callerOf, refuseSuspended, requireMember, requireRole } from '../auth/middleware.ts';
import type { ServiceClients } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { divisionJson, fieldsJson, orNull } from '../http/answers.ts';
import { HttpError } from '../http/errors.ts';
import { DEFAULT_UPLOAD_MESSAGES, readUpload } from '../http/multipart.ts';
import type { UploadAdmission } from '../http/upload-admission.ts';
import {
  idField,
  optionalText,
  optionalUrl,
  pagingParameter,
  parseBody,
  parseQuery,
  pathIdOf,
} from '../http/validation.ts';

/** The largest logo upload read (the service resizes it; the result must fit 5,242,880 bytes). */
export const MAX_LOGO_UPLOAD_BYTES = 10 * 1024 * 1024;
/**
 * Pages of the list (docs/product.md#9-business-constants-and-limits: 30, growing by 30); deeper than the
 * search index pages is refused.
 */
const PAGE = { default: 30, max: 100, maxOffset: 99_900 } as const;
/** Resizing a 10 MB photo and writing it takes longer than a lookup; the member waits for it. */
const UPLOAD_DEADLINE_MS = 15_000;

export const UPLOAD_MESSAGES = {
  ...DEFAULT_UPLOAD_MESSAGES,
  notMultipart: 'Send the logo as multipart/form-data with the fields logo, organization_id and image_type.',
  oneFile: 'Upload one logo at a time.',
  noFile: 'Please select an image to upload.',
} as const;

// ---------------------------------------------------------------------------------------------- answers

export function organizationJson(organization: Organization) {
  return {
    organization_id: organization.organization_id,
    organization_name: organization.organization_name,
    group_id: organization.group_id,
    group_type: organization.group_type,
    ...fieldsJson(organization, ORGANIZATION_FIELD_NAMES),
    logo: orNull(organization.logo),
    email_domains: organization.email_domains,
  };
}

// ------------------------------------------------------------------------------------------- validation

type FieldName = OrganizationFieldName | DivisionFieldName;

/** An organization id, in a body or an upload's fields. */
const organizationId = idField('organization_id', 'organization_id must be a whole number');

/**
 * A name field: text as optionalText, and a name without letters ('0', '1e+308') or with an unseen character
 * (control, zero-width, bidi, U+FFFD) refused in the rule's words.
 */
const nameText = (field: string, label: string) =>
  optionalText(field, 200).superRefine((value, ctx) => {
    const problem = nameProblem(label, value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A field's check by its row: text bounded by its limit, links as links, a Cal-Access ID as a filer number. */
const fieldCheck = (name: FieldName, { kind, label, limit }: OrganizationFieldSpec) => {
  if (kind === 'url') return optionalUrl(name, label);
  const text = optionalText(name, limit);
  return kind === 'filer-id'
    ? text.refine((value) => !value || isCalAccessId(value), CAL_ACCESS_MESSAGES.shape)
    : text;
};

const shapeOf = <N extends FieldName>(table: Record<N, OrganizationFieldSpec>, names: readonly N[]) =>
  Object.fromEntries(names.map((name) => [name, fieldCheck(name, table[name])])) as Record<
    N,
    ReturnType<typeof fieldCheck>
  >;

const organizationFields = shapeOf(ORGANIZATION_FIELDS, ORGANIZATION_FIELD_NAMES);

const DOMAINS_SHAPE = `${EMAIL_DOMAIN_LABEL}: send email_domains as a list of domains, like ["agency.ca.gov"].`;

/**
 * The email domains a contributor lists: a list of host names, normalized (null or [] clears them), or refused in
 * the rule's words; absent keeps them.
 */
const emailDomains = z
  .array(z.string({ error: DOMAINS_SHAPE }).max(300, DOMAINS_SHAPE), { error: DOMAINS_SHAPE })
  .max(100, DOMAINS_SHAPE)
  .nullable()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return undefined;
    const result = cleanEmailDomains(value ?? []);
    if (result.problem === undefined) return result.domains;
    ctx.addIssue({ code: 'custom', message: result.problem });
    return z.NEVER;
  });

const bodies = {
  addOrganization: z.object({
    organization_name: nameText('organization_name', NAME_LABELS.organization),
    group_type: optionalText('group_type', 64),
    ...organizationFields,
  }),
  updateOrganization: z.object({
    organization_id: organizationId,
    organization_name: nameText('organization_name', NAME_LABELS.organization),
    ...organizationFields,
    email_domains: emailDomains,
  }),
  addDivision: z.object({
    organization_id: organizationId,
    division_name: nameText('division_name', NAME_LABELS.division),
    division_type: optionalText('division_type', 64),
    ...shapeOf(DIVISION_FIELDS, DIVISION_FIELD_NAMES),
  }),
};

const listQuery = z.object({
  search: z.string({ error: 'search must be given once, as text' }).max(200, 'search is too long').optional(),
  group: z.string({ error: 'group must be given once, as text' }).max(64, 'group is too long').optional(),
  offset: pagingParameter('offset', 0, PAGE.maxOffset),
  limit: pagingParameter('limit', 1, PAGE.max),
});
const LIST_PARAMETERS = ['search', 'group', 'offset', 'limit'];

/** An organization id from the path: digits only (400 otherwise); one that cannot exist is simply not found. */
const organizationIdOf = (value: string | undefined) =>
  pathIdOf(value, 'Organization not found', 'The organization id must be a whole number.');

function lookupName(value: string | undefined): string {
  const name = (value ?? '').trim();
  if (name.length > 200) throw new HttpError(400, 'The name to look up must be at most 200 characters.');
  return name;
}

/**
 * Only the fields the member sent, into message M: absent keeps the stored value (proto3 `optional`). N must be
 * among M's fields, so a row the proto lacks is a compile error.
 */
function fieldsMessage<M, N extends FieldName & keyof M>(
  body: Partial<Record<N, string | undefined>>,
  names: readonly N[],
): Pick<M, N> {
  const fields: Partial<Record<N, string>> = {};
  for (const name of names) {
    const value = body[name];
    if (value !== undefined) fields[name] = value;
  }
  return fields as Pick<M, N>;
}

// ------------------------------------------------------------------------------------------------ router

/** Logo uploads pass `uploads`' admission (uploads at once, the member's hourly allowance) before being read. */
export function orgsRouter(
  clients: Pick<ServiceClients, 'org' | 'deadlineMs'>,
  uploads: UploadAdmission,
): Router {
  const router = express.Router();
  const { org } = clients;
  const rpc = serviceCaller(clients, 'org');
  const contributor = requireRole(CONTRIBUTOR_ROLE);

  // The organization directory is for members (docs/product.md#6-roles-and-permissions): every path below
  // needs a valid access token.
  router.use(requireMember);

  router.get('/', async (req, res) => {
    const paged = LIST_PARAMETERS.some((name) => req.query[name] !== undefined);
    if (!paged) {
      // As built: the whole list as an array. Screens page with the parameters instead.
      const answer = await rpc(req, org.listOrganizations, {});
      res.json(answer.organizations.map(organizationJson));
      return;
    }
    const query = parseQuery(listQuery, req.query);
    const offset = query.offset ?? 0;
    const limit = query.limit ?? PAGE.default;
    const answer = await rpc(req, org.searchOrganizations, {
      text: query.search ?? '',
      group: query.group ?? '',
      offset,
      limit,
    });
    res.json({
      organizations: answer.organizations.map(organizationJson),
      total: answer.total,
      offset,
      limit,
    });
  });

  router.get('/organization-groups', async (req, res) => {
    const answer = await rpc(req, org.listGroups, {});
    res.json(answer.groups.map((group) => ({ group_id: group.group_id, group_name: group.group_name })));
  });

  router.get('/organization-name/:name', async (req, res) => {
    const answer = await rpc(req, org.findOrganizationsByName, { name: lookupName(req.params.name) });
    res.json(answer.organizations.map(organizationJson));
  });

  router.get('/division-name/:name', async (req, res) => {
    const answer = await rpc(req, org.findDivisionsByName, { name: lookupName(req.params.name) });
    res.json(answer.divisions.map(divisionJson));
  });

  router.get('/divisions/:organization_id', async (req, res) => {
    const organization_id = organizationIdOf(req.params.organization_id);
    const answer = await rpc(req, org.listDivisions, { organization_id });
    res.json(answer.divisions.map(divisionJson));
  });

  router.post('/add-organization', refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.addOrganization, req);
    // The job form members add organizations from has no Cal-Access ID: one sent by a member is refused, not
    // dropped, so the sender is not left believing it was stored.
    if (body.lobby_filer_id && !isContributor(callerOf(req)))
      throw new HttpError(403, CAL_ACCESS_MESSAGES.contributorsOnly);
    const answer = await rpc(req, org.addOrganization, {
      organization_name: body.organization_name ?? '',
      group_type: body.group_type ?? '',
      fields: fieldsMessage<OrganizationFieldsMessage, OrganizationFieldName>(body, ORGANIZATION_FIELD_NAMES),
    });
    if (!answer.organization) throw new Error('the org service answered an add without the organization');
    // 201 when made; 200 with the existing organization when that name was already there.
    res.status(answer.created ? 201 : 200).json(organizationJson(answer.organization));
  });

  router.post('/update-organization', refuseSuspended, contributor, async (req, res) => {
    const body = parseBody(bodies.updateOrganization, req);
    const answer = await rpc(req, org.updateOrganization, {
      organization_id: body.organization_id,
      organization_name: body.organization_name,
      fields: fieldsMessage<OrganizationFieldsMessage, OrganizationFieldName>(body, ORGANIZATION_FIELD_NAMES),
      email_domains: body.email_domains === undefined ? undefined : { domains: body.email_domains },
    });
    res.json(organizationJson(answer));
  });

  router.post('/upload-organization-logo', refuseSuspended, contributor, async (req, res) => {
    const upload = await readUpload(req, {
      fileField: 'logo',
      maxFileBytes: MAX_LOGO_UPLOAD_BYTES,
      messages: UPLOAD_MESSAGES,
      admit: () => uploads.admit(req),
    });
    if (!upload.file || upload.file.length === 0) throw new HttpError(400, UPLOAD_MESSAGES.noFile);
    const id = organizationId.safeParse(upload.fields.organization_id);
    if (!id.success) throw new HttpError(400, 'organization_id must be a whole number');
    // image_type is the browser's guess from the file name; the service judges the bytes instead.
    const answer = await rpc(
      req,
      org.setOrganizationLogo,
      { organization_id: id.data, image: upload.file },
      Math.max(clients.deadlineMs, UPLOAD_DEADLINE_MS),
    );
    res.json({ url: answer.url });
  });

  router.post('/add-division', refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.addDivision, req);
    const answer = await rpc(req, org.addDivision, {
      organization_id: body.organization_id,
      division_name: body.division_name ?? '',
      division_type: body.division_type ?? '',
      ...fieldsMessage<AddDivisionRequest, DivisionFieldName>(body, DIVISION_FIELD_NAMES),
    });
    if (!answer.division) throw new Error('the org service answered an add without the division');
    res.status(answer.created ? 201 : 200).json(divisionJson(answer.division));
  });

  // Last: '/:id' would otherwise take the named paths above.
  router.get('/:id', async (req, res) => {
    const answer = await rpc(req, org.getOrganization, { organization_id: organizationIdOf(req.params.id) });
    if (!answer.organization) throw new Error('the org service answered without the organization');
    res.json({ ...organizationJson(answer.organization), Divisions: answer.divisions.map(divisionJson) });
  });

  return router;
}
