// Demo logos: a tasteful mark made at seed time (initials on a coloured rounded square), drawn from SVG with
// sharp, so the demo needs no image files in the repository.
import sharp from 'sharp';

/** Muted, readable backgrounds for white initials. */
const PALETTE = ['#1d4e89', '#2a7f62', '#8c2f39', '#5b3f8c', '#b35c1e', '#256d85', '#4a5a23', '#7a3b69'];

/** Up to two initials from the name's significant words ('Office of the Governor' -> 'OG'). */
export function initialsOf(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s&'-]/gu, ' ')
    .split(/\s+/)
    .filter((word) => word && !['of', 'the', 'and', 'for', 'on', '&'].includes(word.toLowerCase()));
  const letters = words.map((word) => [...word][0]?.toUpperCase() ?? '').join('');
  return letters.slice(0, 2) || '?';
}

function colourOf(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return PALETTE[hash % PALETTE.length] as string;
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );

/**
 * A 240×240 PNG logo for `name`. The initials use the machine's sans-serif font through fontconfig; where no
 * font is installed the mark is the coloured square alone, which still reads as a logo.
 */
export async function renderLogo(name: string): Promise<Buffer> {
  const initials = escapeXml(initialsOf(name));
  const colour = colourOf(name);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240">
  <rect width="240" height="240" rx="44" fill="${colour}"/>
  <rect x="14" y="14" width="212" height="212" rx="34" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="4"/>
  <text x="120" y="150" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="92" font-weight="700"
    fill="#ffffff" text-anchor="middle" letter-spacing="2">${initials}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}
