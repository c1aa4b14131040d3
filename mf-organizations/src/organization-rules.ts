// How the screens present an organization: where a Cal-Access ID links to, and the eight social networks
// in display order. Which groups carry a Cal-Access ID is a product rule, in @rotunda/rules.
import type { EditableField, Organization } from './api';

/**
 * The Secretary of State's lobbying disclosure site (Cal-Access) keys its pages by the filer id. Lobbying
 * firms (group 'Lobbyists') have a firm page; associations and unions file as lobbyist employers:
 *   https://cal-access.sos.ca.gov/Lobbying/Firms/Detail.aspx?id=<id>
 *   https://cal-access.sos.ca.gov/Lobbying/Employers/Detail.aspx?id=<id>
 */
export function calAccessUrl(groupType: string, filerId: string): string {
  const kind = groupType === 'Lobbyists' ? 'Firms' : 'Employers';
  return `https://cal-access.sos.ca.gov/Lobbying/${kind}/Detail.aspx?id=${encodeURIComponent(filerId.trim())}`;
}

export type SocialField = Extract<EditableField & keyof Organization, `${string}_url`>;

/** The eight networks of spec §2, in its order, with the names people know them by. */
export const SOCIAL_NETWORKS: readonly { field: SocialField; label: string }[] = [
  { field: 'linkedin_url', label: 'LinkedIn' },
  { field: 'facebook_url', label: 'Facebook' },
  { field: 'youtube_url', label: 'YouTube' },
  { field: 'threads_url', label: 'Threads' },
  { field: 'twitter_url', label: 'Twitter/X' },
  { field: 'instagram_url', label: 'Instagram' },
  { field: 'tiktok_url', label: 'TikTok' },
  { field: 'bluesky_url', label: 'Bluesky' },
];
