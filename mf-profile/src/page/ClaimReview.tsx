// A contributor's review of a profile's pending claim (the claim-confirmation contract): who claims (the
// account's name and confirmed email, and when), with Confirm claim and Reject claim. Rejecting asks first; it
// leaves the profile as it was, unclaimed. After either decision the page reloads the profile (and says what was
// decided); a failure shows under the notice. While a decision is on its way the buttons are only marked
// aria-disabled: a disabled button would drop the keyboard focus it holds to the start of the page.
import { Dialog, refusalOr, useAction } from '@rotunda/ui';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { type Claimant, type ClaimDecision, decideClaim } from '../api';
import { FormError } from '../common/fields';
import { claimedAt, fullName } from '../profile-rules';

interface ClaimReviewProps {
  claimId: number;
  /** Who claims the profile (the server answers it to contributors). */
  claimant: Claimant | null;
  /** Called once the decision is stored, to say so and reload the profile. */
  onDecided: (decision: ClaimDecision) => void;
}

export function ClaimReview({ claimId, claimant, onDecided }: ClaimReviewProps) {
  const [confirmingReject, setConfirmingReject] = useState(false);
  const { busy, error, run } = useAction();

  const decide = (decision: ClaimDecision) => {
    setConfirmingReject(false);
    if (busy) return;
    void run(
      async () => {
        await decideClaim(claimId, decision);
        onDecided(decision);
      },
      refusalOr({
        logged: `The claim could not be decided (${decision})`,
        shown: 'The claim could not be decided right now. Please try again.',
      }),
    );
  };

  return (
    <section className="gold-panel prof-review" aria-label="Claim review">
      <p className="prof-review__text">
        A member claimed this profile as their own, and the claim waits for a contributor to confirm it.
      </p>
      {claimant && (
        <dl className="prof-review__who">
          <div>
            <dt>Claimed by</dt>
            <dd>{fullName(claimant) || 'A member without a name on their account'}</dd>
          </div>
          <div>
            <dt>Confirmed account email</dt>
            <dd>{claimant.email || 'None given'}</dd>
          </div>
          <div>
            <dt>Claimed on</dt>
            <dd>
              <time dateTime={claimant.claimed_at}>{claimedAt(claimant.claimed_at)}</time>
            </dd>
          </div>
        </dl>
      )}
      <p className="prof-hint">Confirm only when you know this profile is theirs.</p>
      <div className="form-actions prof-actions--start">
        <button
          type="button"
          className="button button--primary"
          aria-disabled={busy || undefined}
          onClick={() => decide('confirm')}
        >
          <Check size={18} aria-hidden="true" />
          Confirm claim
        </button>
        <button
          type="button"
          className="button button--secondary"
          aria-disabled={busy || undefined}
          onClick={() => {
            if (!busy) setConfirmingReject(true);
          }}
        >
          <X size={18} aria-hidden="true" />
          Reject claim
        </button>
      </div>
      <FormError message={error} />
      <Dialog open={confirmingReject} title="Reject this claim?" onClose={() => setConfirmingReject(false)}>
        <div className="dialog__body prof-dialog-text">
          <p>The profile will be unclaimed again, exactly as it was.</p>
          <div className="form-actions">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setConfirmingReject(false)}
              data-autofocus
            >
              Cancel
            </button>
            <button type="button" className="button prof-button--danger" onClick={() => decide('reject')}>
              <X size={18} aria-hidden="true" />
              Reject claim
            </button>
          </div>
        </div>
      </Dialog>
    </section>
  );
}
