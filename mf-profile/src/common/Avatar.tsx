// A person's picture, or their initials on a tinted circle when there is none (or it fails to load).
// Decorative: the person's name is always written next to it.
import { useState } from 'react';
import { initialsOf } from '../profile-rules';

interface AvatarProps {
  person: { first_name: string; last_name: string };
  picture: string | null;
  size: 'small' | 'medium' | 'large';
}

const PIXELS = { small: 40, medium: 56, large: 96 } as const;

export function Avatar({ person, picture, size }: AvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const className = `prof-avatar prof-avatar--${size}`;
  if (picture && failed !== picture) {
    return (
      <img
        className={className}
        src={picture}
        alt=""
        width={PIXELS[size]}
        height={PIXELS[size]}
        loading="lazy"
        onError={() => setFailed(picture)}
      />
    );
  }
  return (
    <span className={`${className} prof-avatar--initials`} aria-hidden="true">
      {initialsOf(person)}
    </span>
  );
}
