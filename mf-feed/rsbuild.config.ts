// Build of the public square micro-frontend: a Module Federation remote the gateway serves at /mf/feed/.
import { remoteConfig } from '@rotunda/web-build';

export default remoteConfig({
  name: 'mf_feed',
  root: import.meta.dirname,
  exposes: { './PublicSquare': './src/PublicSquare.tsx', './Moderation': './src/moderation/Moderation.tsx' },
  title: 'Public Square',
  port: 3001,
});
