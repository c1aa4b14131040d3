// The people directory screen (/directory), exposed to the shell as 'mf_directory/Directory'.
import { Page } from '@rotunda/ui';
import { Users } from 'lucide-react';

export default function Directory() {
  return (
    <Page
      icon={Users}
      title="Directory"
      lede="People who work in and around state government: legislators and their staff, agencies, associations, advocates and campaigns."
    />
  );
}
