// One action of a screen at a time (save, claim, decide, download): busy while it runs, and a line for the member
// when it fails. `refusalOr` makes that line the server's own words when it refused the member's input, and a
// calm sentence otherwise (the failure then logged for us).
import { useState } from 'react';
import { refusalOf } from './api';

export interface FailureTexts {
  /** For the console, when the failure is not a refusal. */
  logged: string;
  /** For the member, when the server gave no words of its own. */
  shown: string;
}

/** The line for a failure: the server's refusal as it said it, else `shown` (and the failure logged). */
export function refusalOr({ logged, shown }: FailureTexts): (failure: unknown) => string {
  return (failure) => {
    const serverSays = refusalOf(failure);
    if (!serverSays) console.error(logged, failure);
    return serverSays ?? shown;
  };
}

export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  /**
   * Runs `action` unless one is running; `missing`, what the member must fill in first, is said instead. A
   * failure shows as `lineFor(failure)`.
   */
  const run = async (
    action: () => Promise<unknown>,
    lineFor: (failure: unknown) => string,
    missing: string | null = null,
  ) => {
    if (busy) return;
    setError(missing);
    if (missing) return;
    setBusy(true);
    try {
      await action();
    } catch (failure) {
      setError(lineFor(failure));
    } finally {
      setBusy(false);
    }
  };

  return { busy, error, setError, run };
}
