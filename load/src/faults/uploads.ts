// Profile pictures uploaded through the gateway through the whole faults run, one at a time, each tallied as a
// write with what the member saw when refused; at the end, every acknowledged picture must be served. Uploaded
// as for a profile about to be created (no profile_id): each is kept, where one set on a profile replaces the last.
import { failureText, type Tally } from '../replicas/mixed-load.ts';
import { UPLOAD_EVERY_MS } from './plan.ts';

/** A 1×1 PNG: the service judges the bytes, and any real image will do. */
const PICTURE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PATH = '/api/profiles/upload-profile-picture';

export function uploadPictures(options: {
  base: string;
  token: string;
  tally: Tally;
  elapsed: () => number;
}) {
  const { base, token, tally, elapsed } = options;
  const acknowledged: { url: string; atMs: number }[] = [];
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      const begun = elapsed();
      const form = new FormData();
      form.set('profile_picture', new Blob([PICTURE], { type: 'image/png' }), 'bench.png');
      const answer = await fetch(`${base}${PATH}`, {
        method: 'POST',
        headers: { 'x-auth-token': token },
        body: form,
        signal: AbortSignal.timeout(30_000),
      })
        .then(async (res) => ({ status: res.status, text: await res.text() }))
        .catch((error: Error) => ({ status: 0, text: error.message }));
      const url = answer.status === 200 ? (JSON.parse(answer.text) as { url?: string }).url : undefined;
      tally.record(begun, elapsed(), url ? undefined : failureText('POST', PATH, answer));
      if (url) acknowledged.push({ url, atMs: elapsed() });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, UPLOAD_EVERY_MS - (elapsed() - begun))));
    }
  })();
  return {
    acknowledged,
    stop: async () => {
      stopping = true;
      await loop;
    },
  };
}

/** The acknowledged pictures the gateway does not serve now: lost. */
export async function lostPictures(base: string, acknowledged: { url: string; atMs: number }[]) {
  const lost: { url: string; atMs: number }[] = [];
  for (const picture of acknowledged) {
    const status = await fetch(new URL(picture.url, base))
      .then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      })
      .catch(() => 0);
    if (status !== 200) lost.push(picture);
  }
  return lost;
}
