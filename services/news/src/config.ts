// The news service's configuration, validated at start-up.
import { envList, envPositiveInt, serviceConfigSchema } from '@rotunda/service-kit';
import { z } from 'zod';

export const newsConfigSchema = serviceConfigSchema('news', 50055).extend({
  /** RSS or Atom feed URLs, comma-separated; none means only the demo headlines. */
  NEWS_FEEDS: envList().pipe(z.array(z.url({ protocol: /^https?$/ }))),
  NEWS_REFRESH_MINUTES: envPositiveInt(30),
  NEWS_FETCH_TIMEOUT_MS: envPositiveInt(10_000),
});
