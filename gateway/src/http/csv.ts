// A spreadsheet download written while its rows arrive from a service stream: RFC 4180 CSV that spreadsheet apps
// open as it is (UTF-8 with a byte order mark, formulas shown rather than run). A refusal before the first row
// answers as usual; once the answer has begun it can only be cut short.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
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

export async function sendCsv<T>(
  req: Request,
  res: Response,
  items: AsyncGenerator<T>,
  { fileName, columns, rowOf, what }: CsvDownload<T>,
): Promise<void> {
  const first = await items.next();
  async function* rows() {
    if (first.done) return;
    yield rowOf(first.value);
    for await (const item of items) yield rowOf(item);
  }
  res.setHeader('Content-Disposition', attachmentDisposition(fileName));
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Cache-Control', 'private, no-store');
  try {
    await pipeline(
      Readable.from(rows()),
      stringify({
        header: true,
        columns: [...columns],
        // RFC 4180: CRLF between records; fields with a comma, quote or line break quoted, quotes doubled
        // (csv-stringify quotes a bare CR or LF only when told: it looks for the record delimiter, CRLF).
        record_delimiter: 'windows',
        quoted_match: /[\r\n]/,
        // UTF-8 with a byte order mark: without it, spreadsheet apps read the file in the system's legacy code
        // page and garble every accented name.
        bom: true,
        // A cell starting with = + - @ tab or CR is prefixed with ' so a spreadsheet shows it rather than
        // running it as a formula (OWASP's CSV injection advice).
        escape_formulas: true,
      }),
      res,
    );
  } catch (error) {
    // The answer has begun: it can only be cut short, which the client sees as a broken download.
    if (!res.destroyed) req.log.error({ err: error }, `${what} could not be sent`);
    res.destroy();
  } finally {
    await items.return(undefined);
  }
}
