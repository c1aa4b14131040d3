// Job titles that the directory's 'Elected Officials' filter selects.

/** The directory's group filter value that selects people by title rather than by organization group. */
export const ELECTED_OFFICIALS_GROUP = 'Elected Officials';

export const ELECTED_OFFICIAL_TITLES = [
  'Senator',
  'President pro Tempore',
  'Assemblymember',
  'Speaker',
  'Governor',
  'Lt. Governor',
  'Lieutenant Governor',
  'State Treasurer',
  'Insurance Commissioner',
  'State Controller',
] as const;

const LOWERED = new Set<string>(ELECTED_OFFICIAL_TITLES.map((t) => t.toLowerCase()));

/** Whole-title match, ignoring case and surrounding spaces: 'Senator' matches, 'Senator's Aide' does not. */
export function isElectedOfficialTitle(title: string): boolean {
  return LOWERED.has(title.trim().toLowerCase());
}
