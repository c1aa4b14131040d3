// What the national directory bench (directory-national.ts) asks of the search engine and the processes around
// it: the fixed mix of directory searches (as the gateway's query string and as the index query the profile
// service sends), the engine's raw `_bulk` rate for the index's own documents, and a process's resident memory.
import { readdirSync, readFileSync } from 'node:fs';
import { COUNT_UP_TO, DIRECTORY_ORDER } from '@rotunda/profile-service/directory';
import { MAX_RESULT_WINDOW, type SearchQuery } from '@rotunda/search';

/** One directory search as a member makes it: words, a group, an issue area, a page. */
export interface DirectorySearch {
  search?: string;
  group?: string;
  issue?: string;
  offset?: string;
}

/**
 * The fixed mix: everyone in order, full names, partial words, one and several words, each filter alone and
 * combined, the group 'Other', and a deep page.
 */
export const NATIONAL_QUERIES: DirectorySearch[] = [
  {},
  { search: 'maria alvarado' },
  { search: 'adaeze' },
  { search: 'alv' },
  { search: 'chief of staff' },
  { search: 'director water' },
  { group: 'Legislature' },
  { group: 'Other' },
  { group: 'Elected Officials' },
  { issue: '3' },
  { search: 'analyst', group: 'Agencies' },
  { search: 'director', group: 'Agencies', issue: '5' },
  { search: 'sam', offset: '30' },
  { offset: '900' },
];

export const PAGE = 30;

/** The index query the profile service sends for one search (directory.ts: filters, order, count bound). */
export function indexQueryOf(search: DirectorySearch): SearchQuery {
  const offset = Number(search.offset ?? 0);
  return {
    text: search.search ?? '',
    filters: {
      ...(search.group ? { directory_group: search.group } : {}),
      ...(search.issue ? { issue: search.issue } : {}),
    },
    sort: DIRECTORY_ORDER,
    offset,
    limit: PAGE,
    countUpTo: Math.min(MAX_RESULT_WINDOW, Math.max(COUNT_UP_TO, offset + PAGE + 1)),
    withStored: true,
  };
}

/** The resident memory of a process in MiB (Linux), 0 when it is gone. */
export function rssMiB(pid: number): number {
  try {
    const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The CPU seconds (user and system) a process has used so far (Linux, 100 ticks a second), 0 when it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's closing parenthesis: state is the first, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The processes whose command line holds `text` (the engines' processes name their set's folder). */
export function pidsWhoseCommandHas(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

async function engineJson(url: string, method: string, body?: unknown, ndjson = false): Promise<unknown> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' },
    ...(body === undefined ? {} : { body: ndjson ? (body as string) : JSON.stringify(body) }),
  });
  const answer = (await response.json()) as { errors?: boolean; error?: unknown };
  if (!response.ok || answer.errors)
    throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(answer).slice(0, 500)}`);
  return answer;
}

/**
 * The engine's own `_bulk` rate for the documents `alias` holds: they are read a page at a time (search_after on
 * the id) and written to a scratch index with the same settings and mapping by `_bulk` requests of `batch`
 * documents, `concurrency` at a time, as the rebuild sends them; only the bulk requests' time counts. The scratch
 * index is deleted after.
 */
export async function rawBulkRate(
  engineUrl: string,
  alias: string,
  { batch, concurrency }: { batch: number; concurrency: number },
): Promise<{ documents: number; seconds: number; docsPerSecond: number }> {
  const described = (await engineJson(`${engineUrl}/${alias}`, 'GET')) as Record<
    string,
    { settings: { index: Record<string, unknown> }; mappings: unknown }
  >;
  const [concrete] = Object.values(described);
  if (!concrete) throw new Error(`no index behind ${alias}`);
  const scratch = `${alias}-raw-bulk`;
  await fetch(`${engineUrl}/${scratch}`, { method: 'DELETE' });
  const settings = concrete.settings.index;
  await engineJson(`${engineUrl}/${scratch}`, 'PUT', {
    settings: {
      max_result_window: settings.max_result_window,
      analysis: settings.analysis,
      number_of_shards: settings.number_of_shards,
      number_of_replicas: settings.number_of_replicas,
      refresh_interval: settings.refresh_interval ?? '1s',
    },
    mappings: concrete.mappings,
  });
  let after: unknown[] | undefined;
  let documents = 0;
  let bulkMs = 0;
  try {
    for (;;) {
      const pages: string[] = [];
      for (let i = 0; i < concurrency; i++) {
        const page = (await engineJson(`${engineUrl}/${alias}/_search`, 'POST', {
          size: batch,
          sort: [{ id: 'asc' }],
          track_total_hits: false,
          ...(after ? { search_after: after } : {}),
        })) as { hits: { hits: { _id: string; _source: unknown; sort: unknown[] }[] } };
        const hits = page.hits.hits;
        if (hits.length === 0) break;
        after = hits.at(-1)?.sort;
        documents += hits.length;
        pages.push(
          hits
            .map((hit) => `${JSON.stringify({ create: { _id: hit._id } })}\n${JSON.stringify(hit._source)}\n`)
            .join(''),
        );
      }
      if (pages.length === 0) break;
      const started = performance.now();
      await Promise.all(pages.map((body) => engineJson(`${engineUrl}/${scratch}/_bulk`, 'POST', body, true)));
      bulkMs += performance.now() - started;
    }
  } finally {
    await fetch(`${engineUrl}/${scratch}`, { method: 'DELETE' });
  }
  return { documents, seconds: bulkMs / 1000, docsPerSecond: documents / (bulkMs / 1000) };
}
