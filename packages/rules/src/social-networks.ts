// The eight social networks organizations and profiles link to (docs/product.md#2-screens-and-routes,
// #3-entities-and-their-fields), in the spec's order, by the names people know them by: the labels forms show
// and refusals name.

export const SOCIAL_NETWORKS = [
  { network: 'linkedin', label: 'LinkedIn' },
  { network: 'facebook', label: 'Facebook' },
  { network: 'youtube', label: 'YouTube' },
  { network: 'threads', label: 'Threads' },
  { network: 'twitter', label: 'Twitter/X' },
  { network: 'instagram', label: 'Instagram' },
  { network: 'tiktok', label: 'TikTok' },
  { network: 'bluesky', label: 'Bluesky' },
] as const;

export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number]['network'];

/** A social link's field as the services name it: linkedinUrl. */
export type SocialUrlField = `${SocialNetwork}Url`;

/** The social link fields, in the spec's order. */
export const SOCIAL_URL_FIELDS: readonly SocialUrlField[] = SOCIAL_NETWORKS.map(
  ({ network }) => `${network}Url` as const,
);

export const SOCIAL_URL_LABELS = Object.fromEntries(
  SOCIAL_NETWORKS.map(({ network, label }) => [`${network}Url`, label]),
) as Record<SocialUrlField, string>;

/** A record's social links; null where none is given. */
export type SocialLinks = Record<SocialUrlField, string | null>;

/** A social link's field as the REST answers and the gRPC messages name it: linkedin_url. */
export type SocialField = `${SocialNetwork}_url`;

/** Each network's field in the REST answers and the gRPC messages, with its label, in the spec's order. */
export const SOCIAL_FIELDS: readonly { field: SocialField; label: string }[] = SOCIAL_NETWORKS.map(
  ({ network, label }) => ({ field: `${network}_url` as const, label }),
);

/** A message's social links under the services' names (linkedin_url → linkedinUrl); a link it leaves out stays undefined. */
export function socialLinksOf<T>(
  message: Partial<Record<SocialField, T>>,
): Record<SocialUrlField, T | undefined> {
  return Object.fromEntries(
    SOCIAL_NETWORKS.map(({ network }) => [`${network}Url`, message[`${network}_url`]]),
  ) as Record<SocialUrlField, T | undefined>;
}
