// A JSON array written while its items arrive from a service stream, in pieces of about 64 KB, each waiting for the
// client to take the last (back pressure), so the gateway never holds the whole answer. A failure before the first
// item answers as usual; once the answer has begun it can only be cut short.
import type { Request, Response } from 'express';

/** Items are sent in pieces of about this many bytes. */
const WRITE_PIECE_BYTES = 64 * 1024;

/** Sends `items` as one JSON array, each as `toJson` shapes it; `what` names the answer in the log. */
export async function sendJsonArray<T>(
  req: Request,
  res: Response,
  items: AsyncGenerator<T>,
  toJson: (item: T) => unknown,
  what: string,
): Promise<void> {
  let next = await items.next();
  const gone = new Promise<void>((resolve) => res.once('close', resolve));
  // One 'drain' listener for the whole answer: `compression` wraps the response's `on` but not its
  // `removeListener`, so a listener per wait (events.once) would pile up until the answer ends.
  let drained = () => {};
  res.on('drain', () => drained());
  res.type('application/json');
  let piece = '[';
  try {
    for (let first = true; !next.done; first = false, next = await items.next()) {
      piece += `${first ? '' : ','}${JSON.stringify(toJson(next.value))}`;
      if (piece.length < WRITE_PIECE_BYTES) continue;
      if (!res.write(piece)) await Promise.race([new Promise<void>((resolve) => (drained = resolve)), gone]);
      piece = '';
      if (res.destroyed) return;
    }
    res.end(`${piece}]`);
  } catch (error) {
    // The answer has begun: it can only be cut short, which the client sees as a broken download.
    req.log.error({ err: error }, `${what} could not be sent`);
    res.destroy();
  } finally {
    await items.return(undefined);
  }
}
