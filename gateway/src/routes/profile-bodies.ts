// What the /api/profiles/* paths read (docs/product.md#7-the-calls-it-makes, docs/api.md Profiles): bodies,
// path ids, upload fields and the directory's query, checked for their types and lengths and turned into the
// profile service's messages. The service owns the forms' rules (required fields, an end date or the current
// box, formats) and enforces them; people's names holding unseen characters are refused here too, in the
// rule's words (@rotunda/rules names.ts).
import type { JobFieldsMessage, ProfileFieldsMessage } from '@rotunda/protos/profile';
import {
  BIO_FIELD,
  BIO_LIMIT,
  bioTooLongMessage,
  JOB_FIELD_NAMES,
  JOB_FIELDS,
  type JobFieldName,
  type JobFieldSpec,
  MEMBER_PROFILE_FIELDS,
  type MemberProfileField,
  PROFILE_FIELD_NAMES,
  PROFILE_FIELDS,
  type ProfileFieldName,
  singleSpaced,
  unseenCharactersProblem,
} from '@rotunda/rules';
import type { Request } from 'express';
import { decodeJwt } from 'jose';
import { z } from 'zod';
import { tokenOf } from '../auth/middleware.ts';
import { HttpError } from '../http/errors.ts';
import { idField, MAX_ID, optionalText, pagingParameter, pathIdOf } from '../http/validation.ts';

/**
 * Pages of the directory (docs/product.md#9-business-constants-and-limits: 30, growing by 30); the service
 * refuses deeper than its index pages.
 */
export const DIRECTORY_PAGE = { default: 30, max: 100, maxOffset: 99_900 } as const;

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

/** A person's name: text as optionalText, refused with a control, format or replacement character in it. */
const personName = (field: string, label: string) =>
  optionalText(field, 100).superRefine((value, ctx) => {
    const problem = unseenCharactersProblem(label, value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** The product's forms send booleans; a form post sends 'true'/'false'. */
const flag = (field: string) =>
  z
    .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true'), z.null()], {
      error: `${field} must be true or false`,
    })
    .optional()
    .transform((value) => value === true);

/** A profile field's check: its type and length, and for a person's name no unseen characters. */
const profileField = (name: ProfileFieldName) => {
  const { kind, label, limit } = PROFILE_FIELDS[name];
  return kind === 'name' ? personName(name, label) : optionalText(name, limit);
};

const shapeOf = <N extends ProfileFieldName>(names: readonly N[]) =>
  Object.fromEntries(names.map((name) => [name, profileField(name)])) as Record<
    N,
    ReturnType<typeof profileField>
  >;

/** What a member sends for their own profile; an update may also carry the contributors' fields. */
const memberFields = shapeOf<MemberProfileField>(MEMBER_PROFILE_FIELDS);
const allFields = shapeOf(PROFILE_FIELD_NAMES);

/** A job field's check: ids and flags read from text too, text bounded. */
const jobField = (name: JobFieldName) => {
  const spec: JobFieldSpec = JOB_FIELDS[name];
  if (spec.kind === 'id') return optionalId(name);
  if (spec.kind === 'flag') return flag(name);
  return optionalText(name, spec.limit);
};

const jobShape = Object.fromEntries(JOB_FIELD_NAMES.map((name) => [name, jobField(name)])) as {
  [N in JobFieldName]: ReturnType<typeof jobField>;
};

type JobBody = Partial<Record<JobFieldName, string | number | boolean | undefined>>;

export const bodies = {
  newUserCheck: z.object({
    first_name: optionalText('first_name', 100),
    last_name: optionalText('last_name', 100),
    email: optionalText('email', 254),
  }),
  // user_id and image_type are ignored: the owner is the caller, and the service judges the picture's bytes.
  createProfile: z.object(memberFields),
  updateProfile: z.object({ profile_id: idField('profile_id'), ...allFields }),
  addJob: z.object({ profile_id: idField('profile_id'), ...jobShape }),
  updateJob: z.object({ job_id: idField('job_id'), ...jobShape }),
  deleteJob: z.object({ job_id: idField('job_id') }),
  organizationColleagues: z.object({ organization_id: idField('organization_id') }),
  divisionColleagues: z.object({ division_id: idField('division_id') }),
  decideClaim: z.object({
    decision: z.enum(['confirm', 'reject'], { error: 'decision must be confirm or reject' }),
  }),
  bio: z.object({
    [BIO_FIELD]: z
      .string({ error: `${BIO_FIELD} must be text` })
      .max(BIO_LIMIT, bioTooLongMessage)
      .nullish(),
  }),
};

/** Only the fields the member sent: absent keeps the stored value (proto3 `optional`). */
export function fieldsMessage(
  body: Partial<Record<ProfileFieldName, string | undefined>>,
): ProfileFieldsMessage {
  const fields: ProfileFieldsMessage = {};
  for (const name of PROFILE_FIELD_NAMES) if (body[name] !== undefined) fields[name] = body[name];
  return fields;
}

/** What a required field the member left out is sent as, for the service to name it. */
const BLANK = { text: '', date: '', id: 0, flag: false } as const;

/**
 * A job form as sent: a required field missing goes blank, for the service to name; an optional one left blank
 * is not sent. Writing into the message by the table's names makes a row the proto lacks a compile error.
 */
export function jobMessage(body: JobBody): JobFieldsMessage {
  const fields: Partial<Record<keyof JobFieldsMessage, unknown>> = {};
  for (const name of JOB_FIELD_NAMES) {
    const spec: JobFieldSpec = JOB_FIELDS[name];
    const value = body[name];
    fields[name] = spec.required ? (value ?? BLANK[spec.kind]) : value || undefined;
  }
  return fields as JobFieldsMessage;
}

export const profileIdOf = (value: string | undefined) =>
  pathIdOf(value, 'Profile not found', 'The profile id must be a whole number.');
export const claimIdOf = (value: string | undefined) =>
  pathIdOf(value, 'Claim not found', 'claim_id must be a whole number');

/**
 * The upload's optional profile_id. A browser's FormData turns a missing value into the text 'undefined' or
 * 'null'; those, like an empty field, mean "no profile yet".
 */
export function uploadProfileIdOf(value: string | undefined): number | undefined {
  const text = (value ?? '').trim();
  if (text === '' || text === 'undefined' || text === 'null') return undefined;
  const id = idField('profile_id').safeParse(text);
  if (!id.success) throw new HttpError(400, 'profile_id must be a whole number');
  return id.data;
}

export const directoryQuery = z.object({
  search: z.string({ error: 'search must be given once, as text' }).max(200, 'search is too long').optional(),
  group: z.string({ error: 'group must be given once, as text' }).max(64, 'group is too long').optional(),
  issue: pagingParameter('issue', 1, MAX_ID),
  offset: pagingParameter('offset', 0, DIRECTORY_PAGE.maxOffset),
  limit: pagingParameter('limit', 1, DIRECTORY_PAGE.max),
});

/** The search as the service takes it: words single-spaced, filters left out when not given. */
export function searchRequestOf(query: z.output<typeof directoryQuery>) {
  return {
    search: singleSpaced(query.search ?? ''),
    group: query.group ?? '',
    ...(query.issue === undefined ? {} : { issue_id: query.issue }),
  };
}

/**
 * The member's names as their access token has them. Read only after `authenticate` verified that token, so its
 * claims are the identity provider's; a name missing from it is sent empty.
 */
export function claimantNamesOf(req: Request): { first: string; last: string } {
  const token = tokenOf(req);
  const claims = token ? decodeJwt(token) : {};
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { first: text(claims.given_name), last: text(claims.family_name) };
}
