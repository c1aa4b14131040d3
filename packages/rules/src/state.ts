// State input is forced to uppercase everywhere.

/** Upper-cases as typed; no trimming, so it is safe to apply on every keystroke. */
export function formatState(state: string): string {
  return state.toUpperCase();
}
