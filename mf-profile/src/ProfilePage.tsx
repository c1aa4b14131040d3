// A member's profile (/profile/:id), exposed to the shell as 'mf_profile/ProfilePage'.
import { Page } from '@rotunda/ui';
import { CircleUser } from 'lucide-react';

export default function ProfilePage() {
  return (
    <Page
      icon={CircleUser}
      title="Profile"
      lede="Contact details, job history, issue areas and colleagues."
    />
  );
}
