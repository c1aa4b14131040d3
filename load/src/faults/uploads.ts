// Profile pictures uploaded through the gateway through the whole faults run, one a second; at the end, every
// acknowledged picture must be served. Uploaded as for a profile about to be created (no profile_id): each is
// kept, where one set on a profile replaces the last.
import type { Tally } from '../replicas/mixed-load.ts';
import { paced } from './paced.ts';
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
  const acknowledged: { url: string; atMs: number }[] = [];
  const loop = paced({
    everyMs: UPLOAD_EVERY_MS,
    method: 'POST',
    path: PATH,
    tally: options.tally,
    elapsed: options.elapsed,
    call: () => {
      const form = new FormData();
      form.set('profile_picture', new Blob([PICTURE], { type: 'image/png' }), 'bench.png');
      return fetch(`${options.base}${PATH}`, {
        method: 'POST',
        headers: { 'x-auth-token': options.token },
        body: form,
        signal: AbortSignal.timeout(30_000),
      });
    },
    onSuccess: (text, atMs) => {
      const url = (JSON.parse(text) as { url?: string }).url;
      if (url) acknowledged.push({ url, atMs });
    },
  });
  return { acknowledged, stop: loop.stop };
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
