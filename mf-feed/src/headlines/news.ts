// Headlines data: the /api/news call, the random order and the 'Updated' time in California.

/** One headline as GET /api/news answers it (spec §3). */
export interface Headline {
  title: string;
  snippet: string;
  url: string;
  logo: string;
  publication: string;
  /** ISO 8601 instant. */
  createdAt: string;
}

export async function fetchHeadlines(signal?: AbortSignal): Promise<Headline[]> {
  const response = await fetch('/api/news', { headers: { accept: 'application/json' }, signal });
  if (!response.ok) throw new Error(`GET /api/news answered ${response.status}`);
  const body: unknown = await response.json();
  if (!Array.isArray(body)) throw new Error('GET /api/news did not answer a list');
  return body as Headline[];
}

/** A new array in random order (Fisher–Yates); every item is kept exactly once. */
export function shuffle<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [result[i], result[j]] = [result[j] as T, result[i] as T];
  }
  return result;
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
