// The people directory's group filter values that are not an organization group of their own
// (docs/product.md#2-screens-and-routes Directory screen: 'Elected Officials' and 'Other' are added,
// 'Campaigns' is hidden).

/**
 * Selects people whose current organization is in the group Other, and people with no current organization at
 * all (the spec's catch-all): the directory indexes both under this value.
 */
export const OTHER_GROUP = 'Other';

/** Organization groups the people directory's filter never offers. */
export const DIRECTORY_HIDDEN_GROUPS: readonly string[] = ['Campaigns'];
