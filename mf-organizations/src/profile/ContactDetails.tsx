// The contact block of an organization's profile: address, Cal-Access ID (a link to the lobbying disclosure
// site), phone, website and the social links that are present, each network by name.

import { hasCalAccessId } from '@rotunda/rules';
import { ContactItem, NewTabLink, SocialLinks, safeHref, telHref } from '@rotunda/ui';
import { FileText, Globe, MapPin, Phone } from 'lucide-react';
import type { Organization } from '../api';
import { addressLines, displayPhone, displayUrl } from '../common/format';
import { calAccessUrl } from '../organization-rules';

export function ContactDetails({ organization }: { organization: Organization }) {
  const address = addressLines(organization, { withZip: true });
  const phone = displayPhone(organization.main_phone);
  const website = safeHref(organization.website);
  const filerId = organization.lobby_filer_id?.trim();

  return (
    <div className="orgs-contact">
      <dl className="orgs-contact__list">
        {address.length > 0 && (
          <ContactItem className="orgs-contact__item" icon={<MapPin size={18} />} term="Address">
            {address.map((line) => (
              <span key={line} className="orgs-contact__line">
                {line}
              </span>
            ))}
          </ContactItem>
        )}
        {phone && (
          <ContactItem className="orgs-contact__item" icon={<Phone size={18} />} term="Phone">
            <a href={telHref(phone)}>{phone}</a>
          </ContactItem>
        )}
        {website && (
          <ContactItem className="orgs-contact__item" icon={<Globe size={18} />} term="Website">
            <NewTabLink href={website}>{displayUrl(website)}</NewTabLink>
          </ContactItem>
        )}
        {filerId && hasCalAccessId(organization.group_type) && (
          <ContactItem className="orgs-contact__item" icon={<FileText size={18} />} term="Cal-Access ID">
            <NewTabLink href={calAccessUrl(organization.group_type, filerId)}>{filerId}</NewTabLink>
          </ContactItem>
        )}
      </dl>
      <SocialLinks record={organization} className="orgs-socials" />
    </div>
  );
}
