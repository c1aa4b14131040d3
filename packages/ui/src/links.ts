// How contact details become links on the screens: a web address safe to put in an href (http(s) only), a
// tel: link from a phone as written, and the eight social networks of spec §2/§3 in the spec's order.

/** An href that is safe to render: http(s) only, a bare host gets https://; null for anything else. */
export function safeHref(url: string | null | undefined): string | null {
  const value = url?.trim() ?? '';
  if (!value) return null;
  if (/^https?:\/\//i.test(value)) return value;
  return /^[a-z][a-z0-9+.-]*:/i.test(value) ? null : `https://${value}`;
}

/** A tel: link for the phone's digits (a leading + kept). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

export type SocialField =
  | 'linkedin_url'
  | 'facebook_url'
  | 'youtube_url'
  | 'threads_url'
  | 'twitter_url'
  | 'instagram_url'
  | 'tiktok_url'
  | 'bluesky_url';

/** The eight networks organizations and profiles link to, in the spec's order, by the names people use. */
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
