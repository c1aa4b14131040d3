// A spreadsheet download written while its rows arrive from a service stream: RFC 4180 CSV that spreadsheet apps
// open as it is (UTF-8 with a byte order mark, formulas shown rather than run), sent in pieces, each waiting for the
// client to take the last (back pressure). A refusal before the first row answers as usual; once the answer has
// begun it can only be cut short.
import { type Options, stringify } from 'csv-stringify/sync';
import type { Request, Response } from 'express';
import { attachmentDisposition } from './attachment.ts';

export interface CsvDownload<T> {
  fileName: string;
  /** The header row, in order. */
  columns: readonly string[];
  /** One row of an item, in the columns' order. */
  rowOf: (item: T) => string[];
  /** The download's name in the log. */
  what: string;
}

/** Rows written at once: about 64 KB of a directory export (some 130 bytes a row). */
const ROWS_PER_PIECE = 500;

const CSV_OPTIONS: Options = {
  // RFC 4180: CRLF between records; fields with a comma, quote or line break quoted, quotes doubled
  // (csv-stringify quotes a bare CR or LF only when told: it looks for the record delimiter, CRLF).
  record_delimiter: 'windows',
  quoted_match: /[\r\n]/,
  // A cell starting with = + - @ tab or CR is prefixed with ' so a spreadsheet shows it rather than running it
  // as a formula (OWASP's CSV injection advice).
  escape_formulas: true,
};

export async function sendCsv<T>(
  req: Request,
  res: Response,
  items: AsyncGenerator<T>,
  { fileName, columns, rowOf, what }: CsvDownload<T>,
): Promise<void> {
  let next = await items.next();
  res.setHeader('Content-Disposition', attachmentDisposition(fileName));
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Cache-Control', 'private, no-store');
  // One 'close' and one 'drain' listener for the whole answer, however long. Piping through stream.pipeline put
  // six more 'close' listeners on the response, on top of the logs', the telemetry's and compression's: past
  // Node's ten, every export logged a MaxListenersExceededWarning. `compression` wraps the response's `on` but
  // not its `removeListener`, so a listener per wait (events.once) would pile up instead.
  const gone = new Promise<void>((resolve) => res.once('close', resolve));
  let drained = () => {};
  res.on('drain', () => drained());
  // UTF-8 with a byte order mark: without it, spreadsheet apps read the file in the system's legacy code page and
  // garble every accented name.
  let piece = stringify([], { ...CSV_OPTIONS, header: true, columns: [...columns], bom: true });
  try {
    while (!next.done) {
      const rows: string[][] = [];
      for (; !next.done && rows.length < ROWS_PER_PIECE; next = await items.next())
        rows.push(rowOf(next.value));
      // A client that left is not written to (nor is the rest read from the service).
      if (res.destroyed) return;
      piece += stringify(rows, CSV_OPTIONS);
      if (!res.write(piece)) await Promise.race([new Promise<void>((resolve) => (drained = resolve)), gone]);
      piece = '';
    }
    if (!res.destroyed) res.end(piece);
  } catch (error) {
    // The answer has begun: it can only be cut short, which the client sees as a broken download.
    if (!res.destroyed) req.log.error({ err: error }, `${what} could not be sent`);
    res.destroy();
  } finally {
    await items.return(undefined);
  }
}
