// Random order for what a screen shows a few of at a time (the headlines, a profile's colleagues).

/** A new array in random order (Fisher–Yates); every item is kept exactly once. */
export function shuffle<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [result[i], result[j]] = [result[j] as T, result[i] as T];
  }
  return result;
}
