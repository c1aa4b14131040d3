// Step 0 of profile creation (docs/product.md#2-screens-and-routes): the unclaimed profiles with the member's
// first name, last name and email. The member claims one (after the confirmation) or goes on with 'None are
// me - Enter profile creation'.
import { UserCheck, UserPlus } from 'lucide-react';
import { useState } from 'react';
import type { ListedProfile, Profile } from '../api';
import { Avatar } from '../common/Avatar';
import { ClaimDialog } from '../common/ClaimDialog';
import { currentJobOf, fullName } from '../profile-rules';

interface MatchStepProps {
  profiles: readonly ListedProfile[];
  onClaimed: (profile: Profile) => void;
  onNoneAreMe: () => void;
}

export function MatchStep({ profiles, onClaimed, onNoneAreMe }: MatchStepProps) {
  const [claiming, setClaiming] = useState<ListedProfile | null>(null);
  return (
    <div className="prof-step__body">
      <p className="prof-step__lede">
        {profiles.length === 1
          ? 'Rotunda already lists a profile with your name and email. If it is you, claim it to make it yours; otherwise create your own.'
          : 'Rotunda already lists profiles with your name and email. If one of them is you, claim it to make it yours; otherwise create your own.'}
      </p>
      <ul className="prof-matches">
        {profiles.map((profile) => {
          const job = currentJobOf(profile);
          const name = fullName(profile);
          return (
            <li key={profile.profile_id} className="prof-match">
              <Avatar person={profile} picture={profile.profile_picture} size="medium" />
              <div className="prof-match__body">
                <p className="prof-match__name">{name}</p>
                {job && (
                  <p className="prof-match__job">
                    {job.title}, {job.Organization.organization_name}
                  </p>
                )}
                <p className="prof-match__email">{profile.work_email}</p>
              </div>
              <button
                type="button"
                className="button button--secondary"
                aria-haspopup="dialog"
                aria-label={`Claim the profile of ${name}`}
                onClick={() => setClaiming(profile)}
              >
                <UserCheck size={16} aria-hidden="true" />
                Claim
              </button>
            </li>
          );
        })}
      </ul>
      <div className="form-actions prof-actions--start">
        <button type="button" className="button button--primary" onClick={onNoneAreMe}>
          <UserPlus size={18} aria-hidden="true" />
          None are me - Enter profile creation
        </button>
      </div>
      <ClaimDialog profile={claiming} onClose={() => setClaiming(null)} onClaimed={onClaimed} />
    </div>
  );
}
