// A gateway logger whose lines a test reads back: the service kit's own logger (so redaction and levels are the
// real ones), writing its JSON lines into memory instead of stdout.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@rotunda/service-kit';

export interface LogLine {
  /** pino's numeric level: 30 info, 40 warn, 50 error. */
  level: number;
  msg: string;
  [field: string]: unknown;
}

export interface CapturedLog {
  logger: Logger;
  /** Every line written so far, parsed; empty it (`length = 0`) to look at what comes next. */
  lines: LogLine[];
  /** Everything written, as written (a secret must not appear in it in any form). */
  text: () => string;
}

export function captureLog(level = 'info'): CapturedLog {
  const lines: LogLine[] = [];
  const written: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const text = chunk.toString();
      written.push(text);
      for (const line of text.split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return {
    logger: createLogger('gateway', level, destination),
    lines,
    text: () => written.join(''),
  };
}
