// The demo member signing in through the gateway every few seconds through the whole faults run: what a member
// who is not signed in yet meets while the identity provider, or the database behind it, is away.
import { DEMO_MEMBER } from '../../k6/journeys.js';
import type { Tally } from '../replicas/mixed-load.ts';
import { paced } from './paced.ts';
import { SIGN_IN_EVERY_MS } from './plan.ts';

export function signIns(options: { base: string; tally: Tally; elapsed: () => number }) {
  return paced({
    everyMs: SIGN_IN_EVERY_MS,
    method: 'POST',
    path: '/auth/login',
    tally: options.tally,
    elapsed: options.elapsed,
    call: () =>
      fetch(`${options.base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(DEMO_MEMBER),
        signal: AbortSignal.timeout(30_000),
      }),
  });
}
