// The organization list screen (/organizations), exposed to the shell as 'mf_organizations/OrganizationList'.
import { Building2 } from 'lucide-react';
import { PageHeader } from './PageHeader';

export default function OrganizationList() {
  return (
    <div className="orgs-page">
      <PageHeader
        icon={<Building2 size={22} />}
        title="Organizations"
        lede="Agencies, associations, unions, lobbying firms and legislative offices, with the people who work there."
      />
    </div>
  );
}
