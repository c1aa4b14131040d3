// The news service's configuration, validated at start-up.
import { envList, envPositiveInt, serviceConfigSchema } from '@rotunda/service-kit';
import { z } from 'zod';
import { parseAddressRange } from './adapters/public-address.ts';

/** An IP address or range, refused at start-up with the reason when it is neither. */
const addressRange = z.string().superRefine((text, ctx) => {
  try {
    parseAddressRange(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
  }
});

export const newsConfigSchema = serviceConfigSchema('news', 50055).extend({
  /** RSS or Atom feed URLs, comma-separated; none means only the demo headlines. */
  NEWS_FEEDS: envList().pipe(z.array(z.url({ protocol: /^https?$/ }))),
  NEWS_REFRESH_MINUTES: envPositiveInt(30),
  NEWS_FETCH_TIMEOUT_MS: envPositiveInt(10_000),
  /**
   * Addresses or ranges (comma-separated: 127.0.0.1, 10.1.0.0/16) the feed reader may reach although they are
   * private, loopback or link-local: a feed served inside the network. None by default: feeds and their
   * redirects go to public addresses only.
   */
  NEWS_ALLOW_PRIVATE_ADDRESSES: envList().pipe(z.array(addressRange)),
});

export type NewsConfig = z.infer<typeof newsConfigSchema>;
