// What a request carries, validated at the gateway for its shapes and types: bodies, query strings and ids in the
// path. zod schemas whose first message is the one a screen (or a developer) needs, so refusals answer 400
// `{ errors: [{ msg }] }` without a round trip to a service; the services own the product's rules.
import { webAddressMessage } from '@rotunda/rules';
import type { Request } from 'express';
import { z } from 'zod';
import { HttpError } from './errors.ts';

/** A required text field: 'email is required' when absent or blank; trimmed unless told otherwise. */
export function requiredText(
  field: string,
  { max = 256, trim = true, missing }: { max?: number; trim?: boolean; missing?: string } = {},
) {
  const required = missing ?? `${field} is required`;
  const text = z.string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? required : `${field} must be text`,
  });
  return (trim ? text.trim() : text).min(1, required).max(max, `${field} must be at most ${max} characters`);
}

/** Parses the JSON (or form) body against `schema`; the first problem becomes the 400 message. */
export function parseBody<Schema extends z.ZodType>(schema: Schema, req: Request): z.infer<Schema> {
  // Express 5 leaves req.body undefined when nothing was sent: that is an empty object for validation.
  const body: unknown = req.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw new HttpError(400, 'The request body must be a JSON object.');
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw new HttpError(400, result.error.issues[0]?.message ?? 'The request is not valid.');
}

/** A paging value of the query string (offset, limit): digits only, within [min, max]; absent is allowed. */
export const pagingParameter = (field: string, min: number, max: number) =>
  z
    .string({ error: `${field} must be a whole number from ${min} to ${max}` })
    .regex(/^\d{1,9}$/, `${field} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((value) => value >= min && value <= max, `${field} must be a whole number from ${min} to ${max}`)
    .optional();

/** Parses the query string against `schema`; the first problem becomes the 400 message. */
export function parseQuery<Schema extends z.ZodType>(schema: Schema, query: unknown): z.infer<Schema> {
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  throw new HttpError(400, result.error.issues[0]?.message ?? 'The request is not valid.');
}

/**
 * An optional text field: absent stays absent (the service keeps the stored value), null or blank clears it,
 * a number (a phone or ZIP typed into a number input) becomes its digits.
 */
export const optionalText = (field: string, max = 256) =>
  z
    .union([z.string(), z.number(), z.null()], { error: `${field} must be text` })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === null ? '' : String(value).trim()))
    .refine(
      (value) => value === undefined || value.length <= max,
      `${field} must be at most ${max} characters`,
    );

/**
 * A link shown in an href: http(s) only. A bare host ('www.example.org') passes; the service adds https://.
 * The same label and words as the service's refusal.
 */
export const optionalUrl = (field: string, label: string) =>
  optionalText(field, 2048).refine(
    (value) => !value || !/^[a-z][a-z0-9+.-]*:/i.test(value) || /^https?:\/\/\S+$/i.test(value),
    webAddressMessage(label),
  );

/** The largest id a service stores (PostgreSQL integer). */
export const MAX_ID = 2 ** 31 - 1;

/**
 * A record's id from the path: digits only (400, `invalid`, otherwise); one that cannot exist (0, or beyond what
 * PostgreSQL stores) is simply not found.
 */
export function pathIdOf(
  value: string | undefined,
  notFound: string,
  invalid = 'The id must be a whole number.',
): number {
  if (!value || !/^\d+$/.test(value)) throw new HttpError(400, invalid);
  const pathId = Number(value);
  if (!Number.isSafeInteger(pathId) || pathId < 1 || pathId > MAX_ID) throw new HttpError(404, notFound);
  return pathId;
}

/**
 * A required id in a body: a whole number, or its digits as text. Absent or null is told `missing` ('<field> is
 * required' unless given).
 */
export const idField = (field: string, missing = `${field} is required`) =>
  z
    .union(
      [z.number(), z.string().trim().regex(/^\d+$/, `${field} must be a whole number`).transform(Number)],
      {
        error: (issue) =>
          issue.input === undefined || issue.input === null ? missing : `${field} must be a whole number`,
      },
    )
    .refine((value) => Number.isSafeInteger(value) && value >= 1 && value <= MAX_ID, {
      message: `${field} must be a whole number`,
    });
