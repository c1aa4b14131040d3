// Profile creation (/profile/create), exposed to the shell as 'mf_profile/ProfileCreate'. The welcome
// reads the signed-in user from the shared session store.
import { useUser } from '@rotunda/session';
import { UserPlus } from 'lucide-react';
import { PageHeader } from './PageHeader';

export default function ProfileCreate() {
  const user = useUser();
  const welcome = user?.first_name ? `Welcome to Rotunda, ${user.first_name}.` : 'Welcome to Rotunda.';
  return (
    <div className="profile-page">
      <PageHeader
        icon={<UserPlus size={22} />}
        title="Create your profile"
        lede={`${welcome} Your profile is how colleagues across state government find you and your work.`}
      />
    </div>
  );
}
