// One organization's profile (/organization/:id), exposed to the shell as
// 'mf_organizations/OrganizationProfile'.
import { Landmark } from 'lucide-react';
import { PageHeader } from './PageHeader';

export default function OrganizationProfile() {
  return (
    <div className="orgs-page">
      <PageHeader
        icon={<Landmark size={22} />}
        title="Organization"
        lede="Contact details, offices and the people who work here."
      />
    </div>
  );
}
