// The Idempotency-Key contract (ADR 0046), shared by the browser that sends the header and the servers that honour
// it: its name, its form, and the words of its refusals, which the browser also reads (an "in progress" answer
// means the first attempt is still running: send the same again shortly).

/** The HTTP header (IETF httpapi "The Idempotency-Key HTTP Header Field") and the gRPC metadata key alike. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

export const IDEMPOTENCY_MESSAGES = {
  malformed:
    'The Idempotency-Key header must be 8 to 255 visible ASCII characters (a UUID, say), optionally in double quotes.',
  reused:
    'This Idempotency-Key was already used for a different request: send a new key with each new request.',
  inProgress: 'A request with this Idempotency-Key is still being processed: try again shortly.',
} as const;

/**
 * The key an `Idempotency-Key` value carries, or undefined when it is malformed. The draft standard makes the value
 * a structured-field string (in double quotes); the bare form most APIs document is taken too.
 */
export function parseIdempotencyKey(value: string): string | undefined {
  const key = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  // Visible ASCII but the quote and backslash, which a structured-field string would have to escape.
  return /^[!#-[\]-~]{8,255}$/.test(key) ? key : undefined;
}
