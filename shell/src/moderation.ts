// What the shell shows of moderation (ADR 0041): the signed-in member's running suspension (the notice above
// every page) and, for contributors, how many reported posts and comments wait in the queue (the Moderation
// entry's count). Both are asked after sign-in and on every navigation, and every minute on a page left open,
// so a suspension, its lifting or a new report shows without a reload.
import { useUser } from '@rotunda/session';
import { asList, call } from '@rotunda/ui';
import { useEffect, useState } from 'react';
import { create } from 'zustand';

/** A running suspension as GET /api/moderation/me answers it. */
export interface Suspension {
  /** When it ends (ISO 8601). */
  until: string;
  reason: string;
}

interface ModerationState {
  suspension: Suspension | null;
  /** Reported targets with open reports (contributors only); null until known or for anyone else. */
  openItems: number | null;
}

const NOTHING: ModerationState = { suspension: null, openItems: null };

export const useModeration = create<ModerationState>()(() => NOTHING);

/** How often a page left open asks again. */
export const MODERATION_REFRESH_MS = 60_000;

/** The answer's suspension, or null; one without a readable end date is not shown rather than misdated. */
function suspensionOf(answer: unknown): Suspension | null {
  const suspension = (answer as { suspension?: unknown } | null)?.suspension;
  if (typeof suspension !== 'object' || suspension === null) return null;
  const { until, reason } = suspension as Record<string, unknown>;
  if (typeof until !== 'string' || Number.isNaN(Date.parse(until)) || typeof reason !== 'string') return null;
  return { until, reason };
}

/**
 * Keeps useModeration current for the signed-in member; the layout calls it once with the current path. A
 * failed request keeps what was known: a passing network error must not hide a suspension.
 */
export function useModerationWatch(pathname: string): void {
  const user = useUser();
  const userId = user?.user_id ?? null;
  const contributor = user?.contributor === true;
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (!userId) return;
    const timer = setInterval(() => setTick((n) => n + 1), MODERATION_REFRESH_MS);
    return () => clearInterval(timer);
  }, [userId]);

  // The path and the tick are dependencies on purpose: a navigation or a minute passing asks again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname and tick re-trigger the requests
  useEffect(() => {
    if (!userId) {
      useModeration.setState(NOTHING);
      return;
    }
    const controller = new AbortController();
    const { signal } = controller;
    const ignore = () => {};
    call<unknown>('GET', '/api/moderation/me', { signal })
      .then((answer) => useModeration.setState({ suspension: suspensionOf(answer) }))
      .catch(ignore);
    if (contributor) {
      call<unknown>('GET', '/api/reports?status=open', { signal })
        .then((answer) => useModeration.setState({ openItems: asList(answer, 'Open reports').length }))
        .catch(ignore);
    } else {
      useModeration.setState({ openItems: null });
    }
    return () => controller.abort();
  }, [userId, contributor, pathname, tick]);
}
