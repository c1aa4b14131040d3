// What a failed run's output ends with: the last warnings and errors of an engine's or the product's log, so that
// CI's output tail says why a journey failed (Keycloak's refused exchange, a service's error) without the logs
// themselves, which CI does not keep.
import { readFileSync } from 'node:fs';

/** Keycloak's `WARN  [` / `ERROR [`, the product's `warn:` / `error:`, and the like; not stack-trace lines. */
const PROBLEM = /(?:^|[\s[(])(?:WARN(?:ING)?|ERROR|FATAL|SEVERE)\b/i;
/** A line longer than this is cut: Keycloak's event lines carry every detail, and a tail must stay readable. */
const MAX_LINE = 600;

/** The last `count` warning and error lines of the log, oldest first; none when there is no such log. */
export function problemLines(logFile: string, count = 40): string[] {
  let text: string;
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => !/^\s+at\s/.test(line) && PROBLEM.test(line))
    .slice(-count)
    .map((line) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)} …` : line));
}

/** The excerpt as printed: a heading naming the log, then its lines indented, or a line saying there were none. */
export function logExcerpt(name: string, logFile: string, count = 40): string {
  const lines = problemLines(logFile, count);
  if (lines.length === 0) return `test:engines: no warnings or errors in ${name} (${logFile})`;
  return [
    `test:engines: the last ${lines.length} warnings and errors of ${name} (${logFile}):`,
    ...lines.map((line) => `  ${line}`),
  ].join('\n');
}
