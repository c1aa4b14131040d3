// The contact block of an organization's profile: address, Cal-Access ID (a link to the lobbying disclosure
// site), phone, website and the social links that are present, each network by name.

import { hasCalAccessId } from '@rotunda/rules';
import { ExternalLink, FileText, Globe, MapPin, Phone } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Organization } from '../api';
import { addressLines, displayPhone, displayUrl, safeHref, telHref } from '../common/format';
import { calAccessUrl, SOCIAL_NETWORKS } from '../organization-rules';

export function ContactDetails({ organization }: { organization: Organization }) {
  const address = addressLines(organization, { withZip: true });
  const phone = displayPhone(organization.main_phone);
  const website = safeHref(organization.website);
  const filerId = organization.lobby_filer_id?.trim();
  const socials = SOCIAL_NETWORKS.flatMap(({ field, label }) => {
    const href = safeHref(organization[field]);
    return href ? [{ field, label, href }] : [];
  });

  return (
    <div className="orgs-contact">
      <dl className="orgs-contact__list">
        {address.length > 0 && (
          <Item icon={<MapPin size={18} />} term="Address">
            {address.map((line) => (
              <span key={line} className="orgs-contact__line">
                {line}
              </span>
            ))}
          </Item>
        )}
        {phone && (
          <Item icon={<Phone size={18} />} term="Phone">
            <a href={telHref(phone)}>{phone}</a>
          </Item>
        )}
        {website && (
          <Item icon={<Globe size={18} />} term="Website">
            <NewTabLink href={website}>{displayUrl(website)}</NewTabLink>
          </Item>
        )}
        {filerId && hasCalAccessId(organization.group_type) && (
          <Item icon={<FileText size={18} />} term="Cal-Access ID">
            <NewTabLink href={calAccessUrl(organization.group_type, filerId)}>{filerId}</NewTabLink>
          </Item>
        )}
      </dl>
      {socials.length > 0 && (
        <ul className="social-links orgs-socials" aria-label="Social media">
          {socials.map(({ field, label, href }) => (
            <li key={field}>
              <NewTabLink href={href} className="social-link">
                {label}
              </NewTabLink>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Item({ icon, term, children }: { icon: ReactNode; term: string; children: ReactNode }) {
  return (
    <div className="orgs-contact__item">
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
      <ExternalLink size={14} aria-hidden="true" className="external-icon" />
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}
