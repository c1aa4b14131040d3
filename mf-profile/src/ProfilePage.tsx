// A member's profile (/profile/:id), exposed to the shell as 'mf_profile/ProfilePage'.
import { CircleUser } from 'lucide-react';
import { PageHeader } from './PageHeader';

export default function ProfilePage() {
  return (
    <div className="profile-page">
      <PageHeader
        icon={<CircleUser size={22} />}
        title="Profile"
        lede="Contact details, job history, issue areas and colleagues."
      />
    </div>
  );
}
