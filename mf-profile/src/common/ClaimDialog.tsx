// The claim confirmation (docs/product.md#4-states-and-transitions Claim profile), from profile creation's
// matches and from an unclaimed profile's page: it says what claiming means, and what happens next: a profile
// whose work email is the member's account email is theirs at once (unless they are a contributor, or the
// email changed lately: the server's answer then says the claim waits); any other claim waits for Rotunda to
// confirm it, the profile unchanged meanwhile. Then it claims; a refusal ('Users can only claim one profile',
// 'This profile has already been claimed') shows here.
import { claimConfirmsAtOnce } from '@rotunda/rules';
import { useIsContributor, useUser } from '@rotunda/session';
import { Dialog, refusalOr, useAction } from '@rotunda/ui';
import { UserCheck } from 'lucide-react';
import { claimProfile, type Profile } from '../api';
import { fullName } from '../profile-rules';
import { FormError } from './fields';

interface ClaimDialogProps {
  /** The profile to claim, or null while the dialog is closed. */
  profile: Pick<Profile, 'profile_id' | 'first_name' | 'last_name' | 'work_email'> | null;
  onClose: () => void;
  onClaimed: (profile: Profile) => void;
}

export function ClaimDialog({ profile, onClose, onClaimed }: ClaimDialogProps) {
  return (
    <Dialog open={profile !== null} title="Claim this profile?" onClose={onClose}>
      {profile && (
        <ClaimForm key={profile.profile_id} profile={profile} onClose={onClose} onClaimed={onClaimed} />
      )}
    </Dialog>
  );
}

function ClaimForm({
  profile,
  onClose,
  onClaimed,
}: {
  profile: NonNullable<ClaimDialogProps['profile']>;
  onClose: () => void;
  onClaimed: (profile: Profile) => void;
}) {
  const { busy: claiming, error, run } = useAction();
  // A contributor's own claim always waits for another contributor (the rule says so before the server does).
  const emailMatches = claimConfirmsAtOnce(useUser()?.email ?? '', profile.work_email, {
    claimantIsContributor: useIsContributor(),
  });

  const claim = () =>
    run(
      async () => onClaimed(await claimProfile(profile.profile_id)),
      refusalOr({
        logged: 'The profile could not be claimed',
        shown: 'The profile could not be claimed right now. Please try again.',
      }),
    );

  return (
    <div className="dialog__body prof-dialog-text">
      <p>
        You are claiming the profile of <strong>{fullName(profile)}</strong> as your own. You can edit it as
        soon as it is yours, and you can claim only one profile.
      </p>
      {emailMatches ? (
        <p>Its work email is your account’s, so it will be yours at once.</p>
      ) : (
        <p>
          Rotunda will reach out to confirm that this profile is yours. Until then it stays as it is: you
          cannot change it or post as it.
        </p>
      )}
      <FormError message={error} />
      <div className="form-actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--primary"
          onClick={claim}
          disabled={claiming}
          data-autofocus
        >
          <UserCheck size={18} aria-hidden="true" />
          {claiming ? 'Claiming…' : 'Claim profile'}
        </button>
      </div>
    </div>
  );
}
