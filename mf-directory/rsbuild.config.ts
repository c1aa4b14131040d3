// Build of the directory micro-frontend: a Module Federation remote the gateway serves at /mf/directory/.
import { remoteConfig } from '@rotunda/web-build';

export default remoteConfig({
  name: 'mf_directory',
  root: import.meta.dirname,
  exposes: { './Directory': './src/Directory.tsx' },
  title: 'Directory',
  port: 3002,
});
