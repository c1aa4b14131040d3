// One card of the organization list: logo (or initials), name, group, address with optional suite, city and
// state, and the formatted phone. The whole card is one link to /organization/{id}, so a click, Enter, or
// opening it in a new tab all work as people expect.
import { MapPin, Phone } from 'lucide-react';
import { Link } from 'react-router';
import type { Organization } from '../api';
import { addressLines, displayPhone } from '../common/format';
import { OrgLogo } from '../common/OrgLogo';

export function OrganizationCard({ organization }: { organization: Organization }) {
  const address = addressLines(organization);
  const phone = displayPhone(organization.main_phone);
  return (
    <Link className="link-card orgs-card" to={`/organization/${organization.organization_id}`}>
      <span className="orgs-card__top">
        <OrgLogo name={organization.organization_name} logo={organization.logo} size="small" />
        <span className="orgs-card__heading">
          <span className="link-card__name orgs-card__name">{organization.organization_name}</span>
          <span className="chip orgs-chip">{organization.group_type}</span>
        </span>
      </span>
      {(address.length > 0 || phone) && (
        <span className="link-card__details">
          {address.length > 0 && (
            <span className="link-card__line">
              <MapPin size={16} aria-hidden="true" />
              <span>
                {address.map((line) => (
                  <span key={line} className="orgs-card__address-line">
                    {line}
                  </span>
                ))}
              </span>
            </span>
          )}
          {phone && (
            <span className="link-card__line">
              <Phone size={16} aria-hidden="true" />
              <span>{phone}</span>
            </span>
          )}
        </span>
      )}
    </Link>
  );
}
