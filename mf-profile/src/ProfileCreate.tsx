// Profile creation (/profile/create), exposed to the shell as 'mf_profile/ProfileCreate'. The welcome
// reads the signed-in user from the shared session store.
import { useUser } from '@rotunda/session';
import { Page } from '@rotunda/ui';
import { UserPlus } from 'lucide-react';

export default function ProfileCreate() {
  const user = useUser();
  const welcome = user?.first_name ? `Welcome to Rotunda, ${user.first_name}.` : 'Welcome to Rotunda.';
  return (
    <Page
      icon={UserPlus}
      title="Create your profile"
      lede={`${welcome} Your profile is how colleagues across state government find you and your work.`}
    />
  );
}
