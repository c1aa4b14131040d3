// Demo profile pictures: a portrait made at seed time (initials on a coloured background with a soft
// head-and-shoulders shape), drawn from SVG with sharp, so the demo needs no photos and shows no real face.
import sharp from 'sharp';

/** Muted, readable backgrounds for white initials. */
const PALETTE = ['#1d4e89', '#2a7f62', '#8c2f39', '#5b3f8c', '#b35c1e', '#256d85', '#4a5a23', '#7a3b69'];

export function initialsOf(firstName: string, lastName: string): string {
  const first = [...firstName.trim()][0] ?? '';
  const last = [...lastName.trim()][0] ?? '';
  return `${first}${last}`.toUpperCase() || '?';
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
 * A 300×400 JPEG portrait for the person. The initials use the machine's sans-serif font through fontconfig;
 * where no font is installed the silhouette on its colour still reads as a picture.
 */
export async function renderAvatar(firstName: string, lastName: string): Promise<Buffer> {
  const initials = escapeXml(initialsOf(firstName, lastName));
  const colour = colourOf(`${firstName} ${lastName}`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400" viewBox="0 0 300 400">
  <rect width="300" height="400" fill="${colour}"/>
  <circle cx="150" cy="150" r="72" fill="#ffffff" fill-opacity="0.18"/>
  <path d="M30 400 C30 290 90 250 150 250 C210 250 270 290 270 400 Z" fill="#ffffff" fill-opacity="0.18"/>
  <text x="150" y="178" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="76" font-weight="700"
    fill="#ffffff" text-anchor="middle" letter-spacing="2">${initials}</text>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
}
