// An organization's logo, or its initials on a tinted square when it has none (or the image fails to load).
// Decorative: the organization's name is always written next to it.
import { useState } from 'react';

const SMALL_WORDS = new Set(['of', 'the', 'and', 'for', 'on', 'in', 'at', 'to', '&']);

/** Up to two letters from the name's significant words: 'Department of Water Stewardship' gives 'DW'. */
export function initialsOf(name: string): string {
  const words = name
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter((word) => word !== '' && !SMALL_WORDS.has(word.toLowerCase()));
  const letters = words.slice(0, 2).map((word) => [...word][0] ?? '');
  return letters.join('').toUpperCase() || '?';
}

interface OrgLogoProps {
  name: string;
  logo: string | null;
  size: 'small' | 'large';
}

export function OrgLogo({ name, logo, size }: OrgLogoProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const className = `orgs-logo orgs-logo--${size}`;
  if (logo && failed !== logo) {
    const pixels = size === 'large' ? 96 : 56;
    return (
      <span className={className}>
        <img
          src={logo}
          alt=""
          width={pixels}
          height={pixels}
          loading="lazy"
          onError={() => setFailed(logo)}
        />
      </span>
    );
  }
  return (
    <span className={`${className} orgs-logo--initials`} aria-hidden="true">
      {initialsOf(name)}
    </span>
  );
}
