// Which calls a client sends once more when the connection failed before any answer came (ADR 0046): the
// reads, which change nothing, so a second sending is harmless. A gateway worker that dies resets the
// kept-alive connections it held; browsers resend an idempotent request on such a connection only sometimes,
// so the product's web client (packages/ui's call) does it itself, and the faults bench's client, which
// stands for it, does the same.

/** The reads sent as POST (their query is a JSON body); every GET is a read too. */
const POST_READS = [
  /^\/api\/posts\/all$/,
  /^\/api\/posts\/profile-info$/,
  /^\/api\/posts\/get-likes\/[^/]+$/,
  /^\/api\/profiles\/organization-colleagues$/,
  /^\/api\/profiles\/new-user-check$/,
];

/** The pause before the second sending: long enough for the gateway's primary to hand the port to a live worker. */
export const READ_AGAIN_AFTER_MS = 100;

/** Is `method path` (the path without its query) a read, which may be sent again after a failed connection? */
export function isRead(method: string, path: string): boolean {
  const bare = path.split('?')[0] ?? path;
  return method === 'GET' || (method === 'POST' && POST_READS.some((read) => read.test(bare)));
}

/**
 * Sends a call through `attempt` and, when it is a read and the attempt failed without an answer (the promise
 * rejected: a reset or refused connection) and `signal` is not aborted, once more after READ_AGAIN_AFTER_MS.
 * Answers (an HTTP status, even 5xx) are returned as they are: the server has spoken.
 */
export async function sendReadAgainOnce<T>(
  method: string,
  path: string,
  attempt: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  try {
    return await attempt();
  } catch (failure) {
    if (!isRead(method, path) || signal?.aborted) throw failure;
    await new Promise((resolve) => setTimeout(resolve, READ_AGAIN_AFTER_MS));
    if (signal?.aborted) throw failure;
    return attempt();
  }
}
