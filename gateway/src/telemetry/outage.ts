// The answers the gateway gave from what it kept because a service could not answer at all (its database away,
// ADR 0047), by what was answered: the operator sees members being served from kept copies, and how much.
import { metricsRegistry } from '@rotunda/service-kit';
import { Counter } from 'prom-client';
import { isServiceUnavailable } from '../http/errors.ts';

export const keptAnswers = new Counter({
  name: 'rotunda_gateway_kept_answers_total',
  help: 'Answers given from what the gateway kept because the service could not answer (UNAVAILABLE), by answer.',
  labelNames: ['answer'] as const,
  registers: [metricsRegistry],
});

/**
 * A micro-cache's outage test for `answer`: a service that cannot answer. The micro-cache asks it only when it
 * has a value to give instead, so each true is one kept answer, counted.
 */
export const keptThroughOutage =
  (answer: string) =>
  (error: unknown): boolean => {
    if (!isServiceUnavailable(error)) return false;
    keptAnswers.inc({ answer });
    return true;
  };
