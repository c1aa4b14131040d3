// How many headlines one call answers: the panel shows a day's worth, never an unbounded table.
export const DEFAULT_HEADLINES = 50;
export const MAX_HEADLINES = 200;

export function headlineLimit(requested: number): number {
  if (!Number.isFinite(requested) || requested <= 0) return DEFAULT_HEADLINES;
  return Math.min(Math.floor(requested), MAX_HEADLINES);
}
