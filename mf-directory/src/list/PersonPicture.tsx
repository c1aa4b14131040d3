// A person's picture on a directory card, or, when they have none (or it fails to load), a placeholder drawn
// here: a silhouette on one of several colours. The choice comes from the profile id, so a person keeps
// the same placeholder on every render and every visit, and neighbouring cards tend to differ. Decorative:
// the person's name is always written next to it.
import { useState } from 'react';

/** Background and figure colours of the placeholders, muted tones of the product's palette. */
const PALETTE = [
  { background: '#dce7f3', figure: '#6f8fb3' },
  { background: '#f4e6c8', figure: '#b48a3c' },
  { background: '#d9ede1', figure: '#5d957a' },
  { background: '#f1dcd9', figure: '#b0706a' },
  { background: '#d7ecec', figure: '#4f8f90' },
  { background: '#e6e0f1', figure: '#8a78b0' },
  { background: '#e4e2dc', figure: '#86837a' },
  { background: '#f3e3d3', figure: '#b57f52' },
] as const;

/** Figures drawn on a 64×64 canvas: head and shoulders, with short hair, long hair or a collar. */
const FIGURES = [
  // Short hair.
  'M32 13c-7 0-12 5-12 12s5 14 12 14 12-7 12-14-5-12-12-12zM12 64c0-11 9-19 20-19s20 8 20 19z',
  // Long hair falling to the shoulders.
  'M32 12c-8 0-13 6-13 14 0 6 1 12-2 17 4 1 9 0 11-2 1 1 3 1 4 1s3 0 4-1c2 2 7 3 11 2-3-5-2-11-2-17 0-8-5-14-13-14zM12 64c0-11 9-19 20-19s20 8 20 19z',
  // Jacket collar.
  'M32 13c-7 0-12 5-12 12s5 14 12 14 12-7 12-14-5-12-12-12zM12 64c0-10 7-17 16-19l4 9 4-9c9 2 16 9 16 19z',
] as const;

/** FNV-1a over the id's characters: a stable, well-spread number for any id. */
function hashOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The placeholder of a profile: which colours and which figure, always the same for one id. */
export function placeholderFor(profileId: number | string): { colour: number; figure: number } {
  const hash = hashOf(String(profileId));
  return { colour: hash % PALETTE.length, figure: Math.floor(hash / PALETTE.length) % FIGURES.length };
}

export function PlaceholderPicture({ profileId }: { profileId: number | string }) {
  const { colour, figure } = placeholderFor(profileId);
  const { background, figure: fill } = PALETTE[colour] ?? PALETTE[0];
  return (
    <svg
      className="dir-picture dir-picture--placeholder"
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
      data-placeholder={`${colour}-${figure}`}
    >
      <rect width="64" height="64" fill={background} />
      <path d={FIGURES[figure] ?? FIGURES[0]} fill={fill} />
    </svg>
  );
}

export function PersonPicture({ profileId, picture }: { profileId: number; picture: string | null }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (picture && failed !== picture) {
    return (
      <img
        className="dir-picture"
        src={picture}
        alt=""
        width={64}
        height={64}
        loading="lazy"
        onError={() => setFailed(picture)}
      />
    );
  }
  return <PlaceholderPicture profileId={profileId} />;
}
