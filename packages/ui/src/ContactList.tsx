// A record's contact details as @rotunda/ui/contact-list.css shows them (an organization's, a member's), which
// the screen imports: a term with its icon over its value, the row of social links that are present (each
// network by name), and a link that opens another site in a new tab, saying so to screen readers.

import { SOCIAL_FIELDS, type SocialField } from '@rotunda/rules';
import { ExternalLink } from 'lucide-react';
import type { ReactNode } from 'react';
import { safeHref } from './links';

export interface ContactItemProps {
  /** The item's own class, for the screen's layout (and its tests). */
  className: string;
  icon: ReactNode;
  term: string;
  children: ReactNode;
}

/** One term of a contact list (<dl>) and its value. */
export function ContactItem({ className, icon, term, children }: ContactItemProps) {
  return (
    <div className={className}>
      <dt className="contact-list__term">
        <span className="contact-list__icon" aria-hidden="true">
          {icon}
        </span>
        {term}
      </dt>
      <dd className="contact-list__value">{children}</dd>
    </div>
  );
}

export interface NewTabLinkProps {
  href: string;
  className?: string;
  children: ReactNode;
}

export function NewTabLink({ href, className, children }: NewTabLinkProps) {
  return (
    <a href={href} className={className} target="_blank" rel="noopener noreferrer">
      {children}
      <ExternalLink size={14} aria-hidden="true" className="external-icon" />
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

export interface SocialLinksProps {
  /** The record's social fields; those without a safe link are left out. */
  record: Readonly<Partial<Record<SocialField, string | null>>>;
  /** The screen's class for the list's spacing, after `social-links`. */
  className: string;
}

/** The record's social links in the spec's order, or nothing when it has none. */
export function SocialLinks({ record, className }: SocialLinksProps) {
  const socials = SOCIAL_FIELDS.flatMap(({ field, label }) => {
    const href = safeHref(record[field]);
    return href ? [{ field, label, href }] : [];
  });
  if (socials.length === 0) return null;
  return (
    <ul className={`social-links ${className}`} aria-label="Social media">
      {socials.map(({ field, label, href }) => (
        <li key={field}>
          <NewTabLink href={href} className="social-link">
            {label}
          </NewTabLink>
        </li>
      ))}
    </ul>
  );
}
