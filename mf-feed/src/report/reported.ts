// What each member reported in this visit, so every place showing that post or comment says "Reported" instead of
// offering the report again (the server counts a repeat report once anyway). Kept per member: another member
// signing in on the same tab may still report.
import { useSyncExternalStore } from 'react';
import type { ReportTarget } from '../api';

const reported = new Set<string>();
const listeners = new Set<() => void>();

const keyOf = (userId: string, { target_type, target_id }: ReportTarget) =>
  `${userId}:${target_type}:${target_id}`;

export function markReported(userId: string, target: ReportTarget): void {
  reported.add(keyOf(userId, target));
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** Has this member reported this target in this visit? */
export function useReported(userId: string, target: ReportTarget): boolean {
  const key = keyOf(userId, target);
  return useSyncExternalStore(subscribe, () => reported.has(key));
}
