// The organization list screen (/organizations), exposed to the shell as 'mf_organizations/OrganizationList'.
import { Page } from '@rotunda/ui';
import { Building2 } from 'lucide-react';

export default function OrganizationList() {
  return (
    <Page
      icon={Building2}
      title="Organizations"
      lede="Agencies, associations, unions, lobbying firms and legislative offices, with the people who work there."
    />
  );
}
