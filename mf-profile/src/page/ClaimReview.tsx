// A contributor's review of a profile's pending claim (the claim-confirmation contract): the notice with
// Confirm claim and Reject claim. Rejecting asks first, since it leaves the profile unclaimed again. After
// either decision the page reloads the profile; a failure shows under the notice.
import { Dialog } from '@rotunda/ui';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { type ClaimDecision, decideClaim, refusalOf } from '../api';
import { FormError } from '../common/fields';

interface ClaimReviewProps {
  claimId: number;
  /** Called once the decision is stored, to reload the profile. */
  onDecided: () => void;
}

export function ClaimReview({ claimId, onDecided }: ClaimReviewProps) {
  const [confirmingReject, setConfirmingReject] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const decide = async (decision: ClaimDecision) => {
    setConfirmingReject(false);
    setBusy(true);
    setError(null);
    try {
      await decideClaim(claimId, decision);
      onDecided();
    } catch (failure) {
      const serverSays = refusalOf(failure);
      if (!serverSays) console.error(`The claim could not be decided (${decision})`, failure);
      setError(serverSays ?? 'The claim could not be decided right now. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="prof-review" aria-label="Claim review">
      <p className="prof-review__text">
        This profile was claimed by its owner and waits for a contributor to confirm it.
      </p>
      <div className="prof-actions prof-actions--start">
        <button
          type="button"
          className="button button--primary"
          disabled={busy}
          onClick={() => decide('confirm')}
        >
          <Check size={18} aria-hidden="true" />
          Confirm claim
        </button>
        <button
          type="button"
          className="button button--secondary"
          disabled={busy}
          onClick={() => setConfirmingReject(true)}
        >
          <X size={18} aria-hidden="true" />
          Reject claim
        </button>
      </div>
      <FormError message={error} />
      <Dialog open={confirmingReject} title="Reject this claim?" onClose={() => setConfirmingReject(false)}>
        <div className="dialog__body prof-dialog-text">
          <p>The profile will be unclaimed again.</p>
          <div className="prof-actions">
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
