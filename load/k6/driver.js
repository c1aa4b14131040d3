// Runs a journey of journeys.js under k6: its options (constant virtual users for LOAD_SECONDS, the thresholds of
// thresholds.json), the member's sign-in in setup, one journey per iteration, and the cleanup in teardown.
import { check, fail } from 'k6';
import http from 'k6/http';
import {
  DEMO_MEMBER,
  JOURNEYS,
  judge,
  k6Thresholds,
  runWord,
  SIGN_IN,
  SIGN_OUT,
  sessionOf,
} from './journeys.js';

const THRESHOLDS = JSON.parse(open('./thresholds.json'));
const BASE_URL = (__ENV.BASE_URL || 'http://localhost:8080').replace(/\/+$/, '');
const CREDENTIALS = {
  email: __ENV.MEMBER_EMAIL || DEMO_MEMBER.email,
  password: __ENV.MEMBER_PASSWORD || DEMO_MEMBER.password,
};

/** k6 options for a journey: VUS and LOAD_SECONDS override the shared concurrency and the 10 s default. */
export function optionsFor(name) {
  const journey = THRESHOLDS.journeys[name];
  return {
    scenarios: {
      [name]: {
        executor: 'constant-vus',
        vus: Number(__ENV.VUS || journey.concurrency),
        duration: `${Number(__ENV.LOAD_SECONDS || 10)}s`,
        // An iteration running at the end finishes: a member-posts one deletes what it posted.
        gracefulStop: '30s',
      },
    },
    thresholds: k6Thresholds(name, journey),
    summaryTrendStats: ['med', 'p(95)', 'p(99)', 'max'],
  };
}

/** Sends a step; requests outside a journey (setup, teardown) carry no journey tag, so no threshold counts them. */
function send(step, ctx, journey) {
  const headers = { 'content-type': 'application/json' };
  if (step.member) headers['x-auth-token'] = ctx.session.token;
  const tags = journey ? { journey, name: step.name } : { name: step.name };
  const res = http.request(
    step.method,
    `${BASE_URL}${step.path(ctx)}`,
    step.body ? JSON.stringify(step.body(ctx)) : null,
    { headers, tags, responseCallback: http.expectedStatuses(step.expect) },
  );
  let json;
  try {
    json = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    json = undefined;
  }
  const ok = judge(step, res.status, json, ctx);
  check(res, { [`${step.name} answers ${step.expect}`]: () => ok }, tags);
  return { ok, status: res.status, json, body: res.body };
}

/** Once before the load: the run's word, and for member journeys a session (wrong credentials stop the run). */
export function setupFor(name) {
  const run = runWord();
  if (!JOURNEYS[name].member) return { run };
  const ctx = { credentials: CREDENTIALS };
  const answer = send(SIGN_IN, ctx);
  if (!answer.ok)
    fail(`${CREDENTIALS.email} could not sign in at ${BASE_URL}: ${answer.status} ${answer.body}`);
  return { run, session: sessionOf(answer.json, Date.now()) };
}

/** This virtual user's session: setup's, until it is about to expire. */
let session;

/** One iteration of the journey. */
export function iterate(name, data) {
  const journey = JOURNEYS[name];
  const ctx = { i: __VU + __ITER, run: data.run, credentials: CREDENTIALS, session, saved: {} };
  if (journey.member) {
    session = session || data.session;
    if (Date.now() >= session.renewAt) {
      const renewed = send(SIGN_IN, { credentials: CREDENTIALS }, name);
      if (!renewed.ok) return;
      session = sessionOf(renewed.json, Date.now());
    }
    ctx.session = session;
  }
  for (const step of journey.steps) {
    if (step.when === undefined || step.when(ctx)) send(step, ctx, name);
  }
}

/** After the load: deletes what an iteration cut off left behind, then ends setup's session. */
export function teardownFor(name, data) {
  const journey = JOURNEYS[name];
  if (!journey.member) return;
  const ctx = { run: data.run, credentials: CREDENTIALS, session: data.session, saved: {} };
  if (Date.now() >= ctx.session.renewAt) {
    const renewed = send(SIGN_IN, ctx);
    if (!renewed.ok) fail(`${CREDENTIALS.email} could not sign in again to clean up: ${renewed.status}`);
    ctx.session = sessionOf(renewed.json, Date.now());
  }
  const deleteStep = journey.steps.find((step) => step.method === 'DELETE');
  // A page of them at a time, while deleting makes progress.
  for (let deleted = 1; journey.leftovers && deleteStep && deleted > 0; ) {
    const found = send(journey.leftovers.find, ctx);
    deleted = 0;
    for (const postId of found.ok ? journey.leftovers.postIds(found.json, ctx) : []) {
      if (send(deleteStep, { ...ctx, saved: { postId } }).ok) deleted++;
    }
  }
  send(SIGN_OUT, ctx);
}
