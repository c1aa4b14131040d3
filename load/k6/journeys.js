// The main journeys, defined once for both load runners: the k6 scripts beside this file (any deployment) and
// `npm run load` (load/src/load.ts, this machine). Plain JavaScript without imports, so k6 and Node both load it.
// A journey is the requests one virtual user makes in a row, each with the answer that counts as correct.

/** The demo member (owns a profile, so may post); MEMBER_EMAIL and MEMBER_PASSWORD name another account. */
export const DEMO_MEMBER = { email: 'member@demo.ca.gov', password: 'Member#2024x' };

/**
 * Post types a visitor filters by (docs/product.md#3-entities-and-their-fields: the ids never change; 9,
 * EVENT, included).
 */
const POST_TYPE_IDS = [1, 2, 3, 4, 5, 6, 7, 8, 9];

/** What members do on the directory screen: open it, type a name or a title, pick a group or an issue, scroll. */
export const DIRECTORY_QUERIES = [
  {},
  { search: 'maria' },
  { search: 'chief of staff' },
  { search: 'alvarado water' },
  { group: 'Legislature' },
  { group: 'Elected Officials' },
  { issue: '3' },
  { search: 'director', group: 'Agencies', issue: '5' },
  { search: 'sam', offset: '30' },
];

const isArray = (json) => Array.isArray(json);
const pick = (list, i) => list[i % list.length];
const query = (params) =>
  Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');

/**
 * Signs the member in; its answer becomes the session member steps send. Made once before the load starts (so
 * wrong credentials stop the run at once) and again by a virtual user whose token is about to expire.
 */
export const SIGN_IN = {
  name: 'sign-in',
  method: 'POST',
  path: () => '/auth/login',
  body: (ctx) => ctx.credentials,
  expect: 200,
  check: (json) => typeof json?.token === 'string',
};

/** The session a sign-in answered: renewed at four fifths of the token's life, before the gateway refuses it. */
export function sessionOf(json, now) {
  return { token: json.token, refreshToken: json.refreshToken, renewAt: now + json.expiresIn * 800 };
}

/** Ends a session (the runners' own sign-in when the run is over). */
export const SIGN_OUT = {
  name: 'sign-out',
  method: 'POST',
  path: () => '/auth/logout',
  body: (ctx) => ({ refreshToken: ctx.session.refreshToken }),
  expect: 204,
};

/**
 * Each journey's steps. A step: `name` (what the thresholds and the figures call it), `method`, `path(ctx)`,
 * `body(ctx)` sent as JSON, `member` (sends the session's token), `expect` (the status), `check(json, ctx)` (the
 * answer's shape), `keep(json, ctx)` (remembers what later steps need in ctx.saved) and `when(ctx)` (skipped
 * unless true). ctx: `i` (the iteration's number, which spreads the queries), `run` (this run's word),
 * `credentials`, `session` and `saved` (emptied each iteration).
 */
export const JOURNEYS = {
  /** A visitor opens the public square, scrolls to the next page and filters by a post type. */
  'visitor-feed': {
    member: false,
    steps: [
      {
        name: 'feed-first-page',
        method: 'POST',
        path: () => '/api/posts/all',
        body: () => ({ offset: 0, limit: 20, sort: 'recent' }),
        expect: 200,
        check: isArray,
      },
      {
        name: 'feed-next-page',
        method: 'POST',
        path: () => '/api/posts/all',
        body: () => ({ offset: 20, limit: 20, sort: 'recent' }),
        expect: 200,
        check: isArray,
      },
      {
        name: 'feed-by-type',
        method: 'POST',
        path: () => '/api/posts/all',
        body: (ctx) => ({ offset: 0, limit: 20, sort: 'recent', posttype_id: pick(POST_TYPE_IDS, ctx.i) }),
        expect: 200,
        check: isArray,
      },
    ],
  },

  /** A member searches the people directory: one of the queries members make, a page of 30 cards. */
  'member-directory': {
    member: true,
    steps: [
      {
        name: 'directory-search',
        method: 'GET',
        path: (ctx) => `/api/profiles/search?${query({ limit: '30', ...pick(DIRECTORY_QUERIES, ctx.i) })}`,
        member: true,
        expect: 200,
        check: (json) => Array.isArray(json?.profiles) && typeof json.total === 'number',
      },
    ],
  },

  /**
   * A member posts an announcement, comments on it, then deletes it (its comments go with it): the journey leaves
   * nothing behind. Titles carry the run's word, so posts a stopped run left are found and deleted at its end.
   */
  'member-posts': {
    member: true,
    steps: [
      {
        name: 'add-post',
        method: 'POST',
        path: () => '/api/posts/add-post',
        body: (ctx) => ({
          post_title: `Load test ${ctx.run} ${ctx.i}`,
          post_body: `Posted by a load test (${ctx.run}) and deleted by it right after.`,
          post_type: POST_TYPE_IDS[0],
        }),
        member: true,
        expect: 201,
        check: (json) => Number.isInteger(json?.post_id),
        keep: (json, ctx) => {
          ctx.saved.postId = json.post_id;
        },
      },
      {
        name: 'add-comment',
        method: 'POST',
        path: () => '/api/posts/add-comment',
        body: (ctx) => ({ post_id: ctx.saved.postId, comment_body: `A comment from ${ctx.run}.` }),
        member: true,
        when: (ctx) => ctx.saved.postId !== undefined,
        expect: 201,
        check: (json, ctx) => json?.post_id === ctx.saved.postId && Number.isInteger(json.comment_id),
      },
      {
        name: 'delete-post',
        method: 'DELETE',
        path: () => '/api/posts/delete-post',
        body: (ctx) => ({ post_id: ctx.saved.postId }),
        member: true,
        when: (ctx) => ctx.saved.postId !== undefined,
        expect: 204,
      },
    ],
    /** After the run: the member's posts titled with the run's word that are still there (an iteration cut off). */
    leftovers: {
      find: {
        name: 'find-leftovers',
        method: 'POST',
        path: () => '/api/posts/all',
        body: (ctx) => ({ offset: 0, limit: 50, sort: 'recent', search: ctx.run }),
        member: true,
        expect: 200,
        check: isArray,
      },
      postIds: (json, ctx) =>
        json.filter((post) => post.post_title.includes(ctx.run)).map((post) => post.post_id),
    },
  },

  /** Someone signs in (the password checked with argon2id) and signs out again, ending the session. */
  login: {
    member: false,
    steps: [
      {
        name: 'login',
        method: 'POST',
        path: () => '/auth/login',
        body: (ctx) => ctx.credentials,
        expect: 200,
        check: (json) => typeof json?.token === 'string' && typeof json.refreshToken === 'string',
        keep: (json, ctx) => {
          ctx.saved.refreshToken = json.refreshToken;
        },
      },
      {
        name: 'logout',
        method: 'POST',
        path: () => '/auth/logout',
        body: (ctx) => ({ refreshToken: ctx.saved.refreshToken }),
        when: (ctx) => ctx.saved.refreshToken !== undefined,
        expect: 204,
      },
    ],
  },
};

/** A word unique to one run, found by the feed's search (letters and digits only). */
export function runWord() {
  return `loadrun${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
}

/** Judges an answer: the expected status and shape. When right, remembers what the journey's next steps need. */
export function judge(step, status, json, ctx) {
  const ok = status === step.expect && (step.check === undefined || step.check(json, ctx));
  if (ok && step.keep) step.keep(json, ctx);
  return ok;
}

/**
 * The k6 thresholds for a journey, from thresholds.json: each step's latency percentiles (inclusive, ms), and
 * failed requests and failed checks each under the journey's error rate.
 */
export function k6Thresholds(name, journey) {
  const thresholds = {
    [`http_req_failed{journey:${name}}`]: [`rate<${journey.errorRate}`],
    [`checks{journey:${name}}`]: [`rate>${1 - journey.errorRate}`],
  };
  for (const [step, limits] of Object.entries(journey.latencyMs)) {
    thresholds[`http_req_duration{journey:${name},name:${step}}`] = Object.entries(limits).map(
      ([percentile, ms]) => `p(${percentile.slice(1)})<=${ms}`,
    );
  }
  return thresholds;
}
