// The 'Please provide entries for the following required fields: ...' message shared by the forms.

export const REQUIRED_FIELDS_MESSAGE_PREFIX = 'Please provide entries for the following required fields: ';

/** Missing means null, undefined, or a string that is empty after trimming; 0 and false count as entered. */
export function isMissing(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  return typeof value === 'string' && value.trim() === '';
}

/** Labels whose value is missing, in the record's insertion order (the form's field order). */
export function missingFields(fields: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(fields)
    .filter(([, value]) => isMissing(value))
    .map(([label]) => label);
}

/** The message listing every missing label joined with ', ', or null when nothing is missing. */
export function requiredFieldsMessage(fields: Readonly<Record<string, unknown>>): string | null {
  const missing = missingFields(fields);
  return missing.length === 0 ? null : REQUIRED_FIELDS_MESSAGE_PREFIX + missing.join(', ');
}
