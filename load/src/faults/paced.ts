// A call made at a member's pace through the whole faults run, one at a time, each tallied with what the member
// saw when it failed: the picture uploads and the sign-ins.
import { failureText, type Tally } from '../replicas/mixed-load.ts';

export interface Paced {
  stop: () => Promise<void>;
}

/** Makes `call` every `everyMs` until stopped; `call` answers what came back, `ok` whether it succeeded. */
export function paced(options: {
  everyMs: number;
  method: string;
  path: string;
  tally: Tally;
  elapsed: () => number;
  call: () => Promise<Response>;
  /** Told each successful answer's body and when it came. */
  onSuccess?: (text: string, atMs: number) => void;
  ok?: (status: number) => boolean;
}): Paced {
  const { everyMs, method, path, tally, elapsed, call, onSuccess, ok = (status) => status === 200 } = options;
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      const begun = elapsed();
      const answer = await call()
        .then(async (res) => ({ status: res.status, text: await res.text() }))
        .catch((error: Error) => ({ status: 0, text: error.message }));
      const succeeded = ok(answer.status);
      tally.record(begun, elapsed(), succeeded ? undefined : failureText(method, path, answer));
      if (succeeded) onSuccess?.(answer.text, elapsed());
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (elapsed() - begun))));
    }
  })();
  return {
    stop: async () => {
      stopping = true;
      await loop;
    },
  };
}
