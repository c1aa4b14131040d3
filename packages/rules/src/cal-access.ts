// The Cal-Access ID (docs/product.md#5-validation-rules organization form, #6-roles-and-permissions): which
// organizations carry one (lobbying firms, and the associations and unions that file as lobbyist employers),
// what one looks like (the filer's number on the Secretary of State's lobbying disclosure site), and who may
// set or correct it (contributors only).
export const CAL_ACCESS_GROUPS: readonly string[] = ['Lobbyists', 'Associations', 'Unions'];

export const hasCalAccessId = (groupName: string): boolean => CAL_ACCESS_GROUPS.includes(groupName);

/** Filer ids are numbers; nine digits leaves room above today's seven. */
const CAL_ACCESS_ID = /^\d{1,9}$/;

export const CAL_ACCESS_MESSAGES = {
  shape:
    'The Cal-Access ID is the filer number from the lobbying disclosure site: digits only, e.g. 1234567.',
  groups: 'A Cal-Access ID applies only to Lobbyists, Associations and Unions.',
  contributorsOnly: 'Only contributors can set or correct a Cal-Access ID.',
} as const;

/** True for a filer number as Cal-Access writes it (outer spaces ignored). */
export const isCalAccessId = (value: string): boolean => CAL_ACCESS_ID.test(value.trim());
