// Build of the organizations micro-frontend: a Module Federation remote the gateway serves at
// /mf/organizations/.
import { remoteConfig } from '@rotunda/web-build';

export default remoteConfig({
  name: 'mf_organizations',
  root: import.meta.dirname,
  exposes: {
    './OrganizationList': './src/OrganizationList.tsx',
    './OrganizationProfile': './src/OrganizationProfile.tsx',
  },
  title: 'Organizations',
  port: 3003,
});
