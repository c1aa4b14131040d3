// One organization's profile (/organization/:id), exposed to the shell as
// 'mf_organizations/OrganizationProfile'.
import { Page } from '@rotunda/ui';
import { Landmark } from 'lucide-react';

export default function OrganizationProfile() {
  return (
    <Page
      icon={Landmark}
      title="Organization"
      lede="Contact details, offices and the people who work here."
    />
  );
}
