// The gateway's moderation snapshot (ADR 0041): it learns the running suspensions and hidden authors from the post
// service every interval, ends a suspension on time even between answers, asks again at once when the feed moves,
// keeps the last snapshot while the post service cannot answer (saying so in its health and the metrics), and
// stops asking once closed.
import { metricsRegistry } from '@rotunda/service-kit';
import { describe, expect, it } from 'vitest';
import { type ModerationSnapshotAnswer, watchModerationSnapshot } from '../src/auth/moderation-snapshot.ts';
import { logger } from './support/fake-auth.ts';

const REASON = 'Repeated spam';

/** A post service whose answer and failure the test sets, with a clock it moves. */
function fakeSource(answer: ModerationSnapshotAnswer) {
  const state = { answer, fail: false, asked: 0, now: Date.parse('2026-12-01T12:00:00Z') };
  const snapshot = watchModerationSnapshot({
    load: async () => {
      state.asked += 1;
      if (state.fail) throw new Error('post service down');
      return state.answer;
    },
    intervalMs: 5,
    logger,
    now: () => state.now,
  });
  return { state, snapshot };
}

const metric = async (name: string) =>
  (await metricsRegistry.getSingleMetric(name)?.get())?.values[0]?.value ?? Number.NaN;

describe('the moderation snapshot', () => {
  it('knows running suspensions and hidden authors, and ends a suspension on time between answers', async () => {
    const until = new Date('2026-12-09T20:00:00Z');
    const { state, snapshot } = fakeSource({
      suspensions: [{ userId: 'u-1', until, reason: REASON }],
      hiddenAuthors: ['u-2'],
    });
    await expect.poll(() => snapshot.suspensionOf('u-1')).toEqual({ until, reason: REASON });
    expect(snapshot.suspensionOf('u-2')).toBeUndefined();
    expect(snapshot.hasHiddenPosts('u-2')).toBe(true);
    expect(snapshot.hasHiddenPosts('u-1')).toBe(false);
    state.now = until.getTime();
    expect(snapshot.suspensionOf('u-1')).toBeUndefined();
    snapshot.close();
  });

  it('learns a lift at the next answer', async () => {
    const until = new Date('2026-12-09T20:00:00Z');
    const { state, snapshot } = fakeSource({
      suspensions: [{ userId: 'u-1', until, reason: REASON }],
      hiddenAuthors: [],
    });
    await expect.poll(() => snapshot.suspensionOf('u-1')).toBeDefined();
    state.answer = { suspensions: [], hiddenAuthors: [] };
    await expect.poll(() => snapshot.suspensionOf('u-1')).toBeUndefined();
    snapshot.close();
  });

  it('keeps the last snapshot while the post service fails, saying so in its health and the metrics', async () => {
    const until = new Date('2026-12-09T20:00:00Z');
    const { state, snapshot } = fakeSource({
      suspensions: [{ userId: 'u-1', until, reason: REASON }],
      hiddenAuthors: [],
    });
    await expect.poll(() => snapshot.health().status).toBe('ok');
    const failedBefore = await metric('rotunda_moderation_snapshot_poll_failures_total');
    state.fail = true;
    await expect.poll(() => snapshot.health().failures).toBeGreaterThan(2);
    expect(snapshot.health()).toMatchObject({ status: 'failing', lastAnswerSecondsAgo: 0 });
    expect(snapshot.suspensionOf('u-1')).toEqual({ until, reason: REASON });
    expect(await metric('rotunda_moderation_snapshot_poll_failing')).toBe(1);
    expect(await metric('rotunda_moderation_snapshot_poll_failures_total')).toBeGreaterThan(failedBefore + 2);
    state.fail = false;
    await expect
      .poll(() => snapshot.health())
      .toEqual({ status: 'ok', failures: 0, lastAnswerSecondsAgo: 0 });
    expect(await metric('rotunda_moderation_snapshot_poll_failing')).toBe(0);
    snapshot.close();
  });

  it('after the feed moves, asks at once and answers current() only from a question asked after the move', async () => {
    const answers: ((answer: ModerationSnapshotAnswer) => void)[] = [];
    const snapshot = watchModerationSnapshot({
      load: () => new Promise((resolve) => answers.push(resolve)),
      intervalMs: 60_000,
      logger,
    });
    await expect.poll(() => answers.length).toBe(1);
    // The feed moves while the first question is still unanswered: its answer may predate a hiding.
    snapshot.outdated();
    let current = false;
    void snapshot.current().then(() => {
      current = true;
    });
    answers[0]?.({ suspensions: [], hiddenAuthors: [] });
    await expect.poll(() => answers.length).toBe(2);
    expect(current).toBe(false);
    answers[1]?.({ suspensions: [], hiddenAuthors: ['u-2'] });
    await expect.poll(() => current).toBe(true);
    expect(snapshot.hasHiddenPosts('u-2')).toBe(true);
    snapshot.close();
  });

  it('stops asking once closed', async () => {
    const { state, snapshot } = fakeSource({ suspensions: [], hiddenAuthors: [] });
    await expect.poll(() => state.asked).toBeGreaterThan(0);
    snapshot.close();
    const asked = state.asked;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(state.asked).toBeLessThanOrEqual(asked + 1);
  });
});
