// The mixed load of the replicas and faults benchmarks: visitors reading the public square, members searching the
// directory and opening profiles, reading their fresh feed, posting and commenting, and a probe timing how long
// search through the gateway takes to find an acknowledged write; then which acknowledged writes are not readable
// at the end, and when each was acknowledged.
import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import { sendReadAgainOnce } from '@rotunda/rules';
import { IDEMPOTENCY_MESSAGES } from '@rotunda/service-kit';
import { DEMO_MEMBER } from '../../k6/journeys.js';
import { send } from '../measure.ts';
import { CONVERGENCE_GIVE_UP_MS } from './plan.ts';

/** What members type in the directory (load/k6/journeys.js): a name, a title, a group, an issue. */
const DIRECTORY_QUERIES: Record<string, string>[] = [
  {},
  { search: 'maria' },
  { search: 'chief of staff' },
  { group: 'Legislature' },
  { issue: '3' },
  { search: 'director', group: 'Agencies' },
];

/** A write's answers that leave its outcome unknown or say the service was away: sent again with the same key. */
const RETRIED_STATUSES = new Set([0, 502, 503, 504]);

/** The pauses before each time a write is sent again, at most twice. */
const WRITE_AGAIN_AFTER_MS = [200, 1000];

/** Should a write that got `answer` be sent again: no outcome known, or its first sending still running (409)? */
const sendAgain = (answer: Answer) =>
  RETRIED_STATUSES.has(answer.status) ||
  (answer.status === 409 && answer.text.includes(IDEMPOTENCY_MESSAGES.inProgress));

interface Answer {
  status: number;
  json: unknown;
  text: string;
}

/** Requests, failures and latencies of one kind of call, with when each ended (ms from the load's start). */
export class Tally {
  readonly ends: number[] = [];
  readonly latencies: number[] = [];
  /** Whether each call succeeded, in the order of `ends`. */
  readonly succeeded: boolean[] = [];
  failed = 0;
  readonly failures = new Map<string, number>();
  /**
   * When each failure ended (ms from the load's start), to place it against the kill and the restart, and how long
   * it took (a refusal at once, or one at the deadline, tell different stories).
   */
  readonly failedAt: { atMs: number; tookMs: number; failure: string }[] = [];
  record(startedAt: number, endedAt: number, failure?: string) {
    this.ends.push(endedAt);
    this.latencies.push(endedAt - startedAt);
    this.succeeded.push(failure === undefined);
    if (failure === undefined) return;
    this.failed++;
    this.failures.set(failure, (this.failures.get(failure) ?? 0) + 1);
    this.failedAt.push({ atMs: Math.round(endedAt), tookMs: Math.round(endedAt - startedAt), failure });
  }
  between(fromMs: number, toMs: number) {
    return this.ends.filter((end) => end >= fromMs && end < toMs).length;
  }
}

/** What a member saw of a failed call: its status and the gateway's message (`{ errors: [{ msg }] }`). */
export function failureText(method: string, path: string, answer: { status: number; text: string }) {
  let msg: string | undefined;
  try {
    msg = (JSON.parse(answer.text) as { errors?: { msg?: string }[] }).errors?.[0]?.msg;
  } catch {
    msg = undefined;
  }
  return `${method} ${path.split('?')[0]} ${answer.status}: ${(msg ?? answer.text).slice(0, 100)}`;
}

/** What `npm start` is told for the mixed load: `replicas` of everything, API only, on `dataDir`. */
export const mixedLoadProductEnv = (dataDir: string, replicas: number, restartDelayMs: number) => ({
  REPLICAS: String(replicas),
  SERVE_WEB: 'false',
  DATA_DIR: dataDir,
  RESTART_DELAY_MS: String(restartDelayMs),
  // One member writes every comment here: their allowance (10, then 10 a minute) would refuse most of them.
  COMMENT_BURST: '1000000',
  COMMENT_RATE_PER_MINUTE: '1000000',
  // The same member opens hundreds of profiles a minute here: theirs is 60 (ADR 0038).
  AUTH_PROFILE_READS_PER_MINUTE: '1000000',
});

function runWord() {
  return `replrun${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
}

/**
 * One mixed-load run against the product on `base`, for `seconds` or, with 'until during ends', for as long as
 * `during` runs; answers its tallies and what it wrote.
 */
export async function drive(
  base: string,
  seconds: number | 'until during ends',
  during: (elapsedMs: () => number, member: { token: string; profileId: number }) => Promise<void>,
): Promise<{
  reads: Tally;
  writes: Tally;
  /** Writes sent a second time with their Idempotency-Key. */
  retriedWrites: number;
  posts: Map<number, number[]>;
  /** When each acknowledged post (`post:<id>`) and comment (`comment:<id>`) was answered, ms from the start. */
  acknowledgedAt: Map<string, number>;
  profileEdits: { name: string; acknowledged: boolean }[];
  convergence: { kind: string; ms: number | undefined }[];
  run: string;
  profileId: number;
  originalFirstName: string;
  token: string;
  agent: Agent;
}> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const call = async (
    method: string,
    path: string,
    options: { token?: string; body?: unknown; idempotencyKey?: string } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.token) headers['x-auth-token'] = options.token;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    // As the product's web client does (packages/ui's call): a read whose connection failed is sent once more.
    const answer = await sendReadAgainOnce(method, path, () =>
      send(agent, new URL(`${base}${path}`), method, headers, body),
    ).catch((error: Error) => ({ status: 0, text: error.message }));
    let json: unknown;
    try {
      json = answer.text ? JSON.parse(answer.text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: answer.status, json, text: answer.text };
  };
  // The set-up, not the load: an identity provider just started answers its first sign-ins slowly.
  let login = await call('POST', '/auth/login', { body: DEMO_MEMBER });
  for (const started = performance.now(); login.status !== 200 && performance.now() - started < 60_000; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    login = await call('POST', '/auth/login', { body: DEMO_MEMBER });
  }
  const token = (login.json as { token?: string } | undefined)?.token;
  if (login.status !== 200 || !token) throw new Error(`the demo member could not sign in: ${login.status}`);
  const owned = await call('GET', '/api/profiles/user-check', { token });
  const profileId = (owned.json as { profile_id: number }[] | undefined)?.[0]?.profile_id;
  if (!profileId) throw new Error(`the demo member has no profile: ${owned.text.slice(0, 200)}`);
  const profile = await call('GET', `/api/profiles/profile/${profileId}`, { token });
  const originalFirstName = (profile.json as { first_name: string }).first_name;

  const run = runWord();
  const reads = new Tally();
  const writes = new Tally();
  const posts = new Map<number, number[]>();
  const acknowledgedAt = new Map<string, number>();
  const profileEdits: { name: string; acknowledged: boolean }[] = [];
  const convergence: { kind: string; ms: number | undefined }[] = [];
  let retriedWrites = 0;
  const startedAt = performance.now();
  const elapsed = () => performance.now() - startedAt;
  let duringEnded = false;
  const loading = () =>
    seconds === 'until during ends' ? !duringEnded : performance.now() < startedAt + seconds * 1000;

  /** A read: anything but 2xx is a failed read. */
  const read = async (method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
    const begun = elapsed();
    const answer = await call(method, path, options);
    const ok = answer.status >= 200 && answer.status < 300;
    reads.record(begun, elapsed(), ok ? undefined : failureText(method, path, answer));
    return ok ? answer : undefined;
  };
  /**
   * A write, sent again with the same Idempotency-Key when no answer came, the service was unavailable or the first
   * sending was still running, as a client may (ADR 0046): the end's check counts what that made twice.
   */
  const write = async (path: string, body: unknown) => {
    const begun = elapsed();
    const idempotencyKey = randomUUID();
    let answer = await call('POST', path, { token, body, idempotencyKey });
    for (const pause of WRITE_AGAIN_AFTER_MS) {
      if (!sendAgain(answer)) break;
      retriedWrites++;
      await new Promise((resolve) => setTimeout(resolve, pause));
      answer = await call('POST', path, { token, body, idempotencyKey });
    }
    const ok = answer.status >= 200 && answer.status < 300;
    writes.record(begun, elapsed(), ok ? undefined : failureText('POST', path, answer));
    return ok ? answer : undefined;
  };
  const post = async (title: string) => {
    const created = await write('/api/posts/add-post', {
      post_title: title,
      post_body: `Posted by the replicas benchmark (${run}).`,
      post_type: 1,
    });
    const postId = (created?.json as { post_id?: number } | undefined)?.post_id;
    if (postId !== undefined) {
      posts.set(postId, []);
      acknowledgedAt.set(`post:${postId}`, elapsed());
    }
    return postId;
  };
  const feedPage = (options: { search?: string; offset?: number }) => ({
    offset: options.offset ?? 0,
    limit: 20,
    sort: 'recent',
    ...(options.search ? { search: options.search } : {}),
  });
  /** Polls `found` through the gateway until it says yes; answers the ms from the acknowledgement, or undefined. */
  const converge = async (
    kind: string,
    acknowledgedAt: number,
    found: (poll: number) => Promise<boolean>,
  ) => {
    for (let poll = 0; performance.now() - acknowledgedAt < CONVERGENCE_GIVE_UP_MS; poll++) {
      if (await found(poll)) {
        convergence.push({ kind, ms: performance.now() - acknowledgedAt });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    convergence.push({ kind, ms: undefined });
  };

  const loops = [
    // Visitors read the public square: the first pages, shared from the gateway's micro-cache.
    ...Array.from({ length: 3 }, () => async (i: number) => {
      await read('POST', '/api/posts/all', { body: feedPage({ offset: (i % 3) * 20 }) });
    }),
    // Members read their feed: always fresh, every one reaches a post replica.
    ...Array.from({ length: 2 }, () => async (i: number) => {
      await read('POST', '/api/posts/all', { token, body: feedPage({ offset: (i % 3) * 20 }) });
    }),
    // Members search the directory and open the first card's profile.
    ...Array.from({ length: 3 }, () => async (i: number) => {
      const query = new URLSearchParams({ limit: '30', ...DIRECTORY_QUERIES[i % DIRECTORY_QUERIES.length] });
      const page = await read('GET', `/api/profiles/search?${query}`, { token });
      const first = (page?.json as { profiles?: { profile_id: number }[] } | undefined)?.profiles?.[0];
      if (first) await read('GET', `/api/profiles/profile/${first.profile_id}`, { token });
    }),
    // Members post and comment on what they posted, at a member's pace.
    ...Array.from({ length: 2 }, (_, loop) => async (i: number) => {
      const postId = await post(`Replica bench ${run} ${loop}-${i}`);
      if (postId !== undefined) {
        const comment = await write('/api/posts/add-comment', {
          post_id: postId,
          comment_body: `A comment from ${run}.`,
        });
        const commentId = (comment?.json as { comment_id?: number } | undefined)?.comment_id;
        if (commentId !== undefined) {
          posts.get(postId)?.push(commentId);
          acknowledgedAt.set(`comment:${commentId}`, elapsed());
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }),
    // The probe: a write, then search through the gateway until it finds it. Profile renames and posts in turn.
    async (i: number) => {
      const word = `${run}x${i}`;
      if (i % 2 === 0) {
        const name = `Member${word}`;
        const edit = await write('/api/profiles/update-profile', { profile_id: profileId, first_name: name });
        profileEdits.push({ name, acknowledged: edit !== undefined });
        if (!edit) return;
        // Each poll asks for a page size of its own: the gateway shares a directory page for 2 s (ADR 0013), and
        // what is measured here is the replicas' index, not that deliberate sharing.
        await converge('profile', performance.now(), async (poll) => {
          const query = new URLSearchParams({ search: word, limit: String(100 - (poll % 99)) });
          const page = await read('GET', `/api/profiles/search?${query}`, { token });
          const cards = (page?.json as { profiles?: { profile_id: number }[] } | undefined)?.profiles ?? [];
          return cards.some((card) => card.profile_id === profileId);
        });
      } else {
        const postId = await post(`Replica bench ${run} ${word}`);
        if (postId === undefined) return;
        await converge('post', performance.now(), async () => {
          const page = await read('POST', '/api/posts/all', { token, body: feedPage({ search: word }) });
          return ((page?.json as { post_id: number }[] | undefined) ?? []).some((p) => p.post_id === postId);
        });
      }
    },
  ];
  await Promise.all([
    ...loops.map(async (loop) => {
      for (let i = 0; loading(); i++) await loop(i);
    }),
    during(elapsed, { token, profileId }).finally(() => {
      duringEnded = true;
    }),
  ]);
  return {
    reads,
    writes,
    retriedWrites,
    posts,
    acknowledgedAt,
    profileEdits,
    convergence,
    run,
    profileId,
    originalFirstName,
    token,
    agent,
  };
}

/** Acknowledged writes not readable at the end: posts and comments by the feed's search, the last profile edit. */
/** What one mixed-load run did and wrote. */
export type MixedLoad = Awaited<ReturnType<typeof drive>>;

export async function lostWrites(base: string, result: MixedLoad) {
  const { agent, token, run } = result;
  const found = new Map<number, Set<number>>();
  /** The posts each title was found on (pages may overlap): every post the run wrote has a title of its own. */
  const titles = new Map<string, Set<number>>();
  for (let offset = 0; ; offset += 50) {
    const body = JSON.stringify({ offset, limit: 50, sort: 'recent', search: run });
    const answer = await send(
      agent,
      new URL(`${base}/api/posts/all`),
      'POST',
      {
        'content-type': 'application/json',
        'x-auth-token': token,
      },
      body,
    );
    if (answer.status !== 200) throw new Error(`the feed's search answered ${answer.status} at the end`);
    const page = JSON.parse(answer.text) as {
      post_id: number;
      post_title: string;
      PostComments: { comment_id: number }[];
    }[];
    for (const post of page) {
      found.set(post.post_id, new Set(post.PostComments.map((c) => c.comment_id)));
      // The search also finds earlier runs' posts (their words share a prefix): only this run's are judged.
      if (post.post_title.includes(run))
        titles.set(post.post_title, (titles.get(post.post_title) ?? new Set()).add(post.post_id));
    }
    if (page.length < 50) break;
  }
  /** Each lost post (`post:<id>`) and comment (`comment:<id>`), to place against when it was acknowledged. */
  const lost: string[] = [];
  for (const [postId, comments] of result.posts) {
    const there = found.get(postId);
    if (!there) lost.push(`post:${postId}`);
    for (const commentId of comments) if (!there?.has(commentId)) lost.push(`comment:${commentId}`);
  }
  const lostPosts = lost.filter((id) => id.startsWith('post:')).length;
  const lostComments = lost.length - lostPosts;
  // Edits of one profile replace each other: the last acknowledged one (or one tried after it) must be what it says.
  const profile = await send(agent, new URL(`${base}/api/profiles/profile/${result.profileId}`), 'GET', {
    'x-auth-token': token,
  });
  const firstName = (JSON.parse(profile.text) as { first_name: string }).first_name;
  const lastAcknowledged = result.profileEdits.findLastIndex((edit) => edit.acknowledged);
  const acceptable = result.profileEdits.slice(Math.max(0, lastAcknowledged)).map((edit) => edit.name);
  const lostProfileEdit = lastAcknowledged >= 0 && !acceptable.includes(firstName) ? 1 : 0;
  // Made twice: a title on more than one post, a post with more comments than the run wrote on it (one at most).
  const duplicatePosts = [...titles.values()].reduce((sum, posts) => sum + posts.size - 1, 0);
  const duplicateComments = [...titles.values()]
    .flatMap((posts) => [...posts])
    .reduce((sum, postId) => sum + Math.max(0, (found.get(postId)?.size ?? 0) - 1), 0);
  return {
    lostPosts,
    lostComments,
    lostProfileEdit,
    lost,
    total: lostPosts + lostComments + lostProfileEdit,
    duplicates: duplicatePosts + duplicateComments,
  };
}

/** What the end's check found lost and made twice. */
export type Lost = Awaited<ReturnType<typeof lostWrites>>;

export async function restoreName(base: string, result: MixedLoad) {
  await send(
    result.agent,
    new URL(`${base}/api/profiles/update-profile`),
    'POST',
    { 'content-type': 'application/json', 'x-auth-token': result.token },
    JSON.stringify({ profile_id: result.profileId, first_name: result.originalFirstName }),
  );
}
