// Build of the profile micro-frontend: a Module Federation remote the gateway serves at /mf/profile/.
import { remoteConfig } from '@rotunda/web-build';

export default remoteConfig({
  name: 'mf_profile',
  root: import.meta.dirname,
  exposes: {
    './ProfileCreate': './src/ProfileCreate.tsx',
    './ProfilePage': './src/ProfilePage.tsx',
  },
  title: 'Profile',
  port: 3004,
});
