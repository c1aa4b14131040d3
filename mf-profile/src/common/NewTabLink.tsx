// A link to another site, opened in a new tab, saying so to screen readers.
import { ExternalLink } from 'lucide-react';
import type { ReactNode } from 'react';

export function NewTabLink({
  href,
  className,
  children,
}: {
  href: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <a href={href} className={className} target="_blank" rel="noopener noreferrer">
      {children}
      <ExternalLink size={14} aria-hidden="true" className="prof-external" />
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}
