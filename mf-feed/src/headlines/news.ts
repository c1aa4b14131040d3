// Headlines data: the /api/news call and the 'Updated' time in California (the random order is @rotunda/ui's
// shuffle).
import { asList, send } from '@rotunda/ui';

/** One headline as GET /api/news answers it (docs/product.md#3-entities-and-their-fields). */
export interface Headline {
  title: string;
  snippet: string;
  url: string;
  logo: string;
  publication: string;
  /** ISO 8601 instant. */
  createdAt: string;
}

/** The headlines are public: asked without the member's token. */
export async function fetchHeadlines(signal?: AbortSignal): Promise<Headline[]> {
  const response = await send('GET', '/api/news', { signal });
  if (!response.ok) throw new Error(`GET /api/news answered ${response.status}`);
  return asList<Headline>(await response.json(), 'GET /api/news');
}

/** The newest createdAt among the headlines, or null when there is none that parses. */
export function newestCreatedAt(headlines: readonly Headline[]): Date | null {
  let newest: number | null = null;
  for (const { createdAt } of headlines) {
    const time = Date.parse(createdAt);
    if (!Number.isNaN(time) && (newest === null || time > newest)) newest = time;
  }
  return newest === null ? null : new Date(newest);
}

// The state's own time zone, daylight saving included (the as-built app approximated it as UTC−7).
const CALIFORNIA_TIME = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Los_Angeles',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** e.g. 'Jan 15, 2026, 12:00 PM PT'. */
export function formatPacificTime(date: Date): string {
  return `${CALIFORNIA_TIME.format(date)} PT`;
}
