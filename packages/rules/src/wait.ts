// A wait in words, as rate-limited answers say it ("Please try again in 42 seconds."): the member reads it, and the
// gateway reads the number back for Retry-After (retryAfterSeconds, which takes "<n> second(s)" or "<n> minute(s)"),
// so every service says it the same way.

/**
 * `seconds` in words: whole seconds (at least 1) below `minutesFrom` seconds, from there whole minutes, rounded up;
 * "1 second", "42 seconds", "3 minutes".
 */
export function waitInWords(seconds: number, minutesFrom = 120): string {
  const whole = Math.max(1, Math.ceil(seconds));
  const [amount, unit] = whole < minutesFrom ? [whole, 'second'] : [Math.ceil(whole / 60), 'minute'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}
