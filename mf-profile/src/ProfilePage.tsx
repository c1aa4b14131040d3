// A member's profile (/profile/:id), exposed to the shell as 'mf_profile/ProfilePage'
// (docs/product.md#2-screens-and-routes): the profile card on the left; bio and job history in the middle;
// colleagues and issues on the right (one column on a phone, three on a wide screen). The owner, or a
// contributor on a profile nobody owns, gets the edit controls (docs/product.md#6-roles-and-permissions); a
// member without a profile may claim one nobody owns and no claim waits on. A claim is the member's at once
// when the profile's work email is their account's; otherwise the claimant lands here with a pending-review
// notice and no edit controls until a contributor, seeing who claims, confirms or rejects it; the contributor
// is then told what was decided. Where a decision or a claim takes away the button that held the keyboard
// focus, the focus goes to the line saying what happened. An unknown id shows a not-found panel.
import { PROFILE_FIELD_LABELS } from '@rotunda/rules';
import { setProfileId, useUser } from '@rotunda/session';
import { ErrorLine, HistorySection, NotFoundPanel, Spinner, useRecord } from '@rotunda/ui';
import { ArrowLeft, Hourglass } from 'lucide-react';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { type ClaimDecision, fetchProfile, fetchProfileHistory } from './api';
import { ClaimDialog } from './common/ClaimDialog';
import { JobDialog, type JobDialogMode } from './job/JobDialog';
import { BioBox } from './page/BioBox';
import { ClaimReview } from './page/ClaimReview';
import { ColleaguesPanel } from './page/ColleaguesPanel';
import { EditProfileDialog } from './page/EditProfileDialog';
import { IssuesPanel } from './page/IssuesPanel';
import { JobHistory } from './page/JobHistory';
import { ProfileCard } from './page/ProfileCard';
import { canClaimProfile, canEditProfile, currentJobOf } from './profile-rules';
import '@rotunda/ui/contact-list.css';
import '@rotunda/ui/controls.css';
import '@rotunda/ui/page.css';
import '@rotunda/ui/states.css';
import '@rotunda/ui/forms.css';
import './profile-common.css';
import './page/profile-page.css';

export default function ProfilePage() {
  const { id = '' } = useParams();
  const user = useUser();
  const [editing, setEditing] = useState(false);
  const [claiming, setClaiming] = useState(false);
  /** The member just claimed the profile on screen and it is theirs at once. */
  const [claimedNow, setClaimedNow] = useState(false);
  const [jobDialog, setJobDialog] = useState<JobDialogMode | null>(null);
  /** A contributor's decision on the claim that waited on this profile. */
  const [decided, setDecided] = useState<ClaimDecision | null>(null);
  const decidedLine = useRef<HTMLParagraphElement>(null);
  /** The claim just made here: its notice (pending, or theirs at once) takes the focus from Claim this profile. */
  const [claimedHere, setClaimedHere] = useState(false);
  const claimNotice = useRef<HTMLElement>(null);
  // Another profile starts over with a spinner and no dialog open.
  const { state, reload, show } = useRecord(id, fetchProfile, 'The profile could not be loaded', () => {
    setEditing(false);
    setClaiming(false);
    setClaimedNow(false);
    setJobDialog(null);
    setDecided(null);
    setClaimedHere(false);
  });
  useEffect(() => {
    if (decided) decidedLine.current?.focus();
  }, [decided]);
  useEffect(() => {
    if (claimedHere) claimNotice.current?.focus();
  }, [claimedHere]);

  if (state.status === 'loading') {
    return (
      <div className="status-panel status-panel--page">
        <Spinner label="Loading profile" />
      </div>
    );
  }
  if (state.status === 'not-found') return <NotFound />;
  if (state.status === 'error') {
    return (
      <div className="page">
        <ErrorLine onRetry={reload}>
          This profile could not be loaded right now. Please try again in a moment.
        </ErrorLine>
      </div>
    );
  }

  const { record: profile } = state;
  const canEdit = canEditProfile(profile, user);
  const isOwn = user !== null && profile.user_id === user.user_id;
  // A contributor decides someone else's pending claim; nobody confirms their own.
  const reviewedClaimId =
    user?.contributor === true && !profile.claimed_by_you && profile.claim_pending ? profile.claim_id : null;

  return (
    <div className="page prof-page">
      {profile.claimed_by_you && <ClaimPendingNotice ref={claimNotice} />}
      {isOwn && claimedNow && (
        <p
          className="prof-notice"
          role="status"
          tabIndex={-1}
          ref={claimNotice as RefObject<HTMLParagraphElement>}
        >
          Thanks for claiming this profile. Its work email is your account’s, so it is yours now.
        </p>
      )}
      {decided && (
        <p className="prof-notice" role="status" tabIndex={-1} ref={decidedLine}>
          {decided === 'confirm'
            ? 'Claim confirmed: the profile is its claimant’s now.'
            : 'Claim rejected: the profile is unclaimed again, exactly as it was.'}
        </p>
      )}
      {reviewedClaimId !== null && (
        <ClaimReview
          key={reviewedClaimId}
          claimId={reviewedClaimId}
          claimant={profile.claimant}
          onDecided={(decision) => {
            setDecided(decision);
            reload();
          }}
        />
      )}
      <div className="prof-columns">
        <div className="prof-columns__card">
          <ProfileCard
            profile={profile}
            canEdit={canEdit}
            onEdit={() => setEditing(true)}
            canClaim={canClaimProfile(profile, user)}
            onClaim={() => setClaiming(true)}
          />
        </div>
        <div className="prof-columns__main">
          <BioBox key={profile.profile_id} profile={profile} canEdit={canEdit} onSaved={show} />
          <JobHistory
            jobs={profile.JobExperiences}
            canEdit={canEdit}
            onAdd={() => setJobDialog({ kind: 'add' })}
            onEdit={(job) => setJobDialog({ kind: 'edit', job })}
          />
          {user?.contributor === true && (
            <HistorySection
              load={(signal) => fetchProfileHistory(profile.profile_id, signal)}
              refreshKey={profile}
              panelClassName="panel"
              titleClassName="prof-section-title"
              fieldNames={PROFILE_FIELD_LABELS}
            />
          )}
        </div>
        <div className="prof-columns__side">
          <ColleaguesPanel profileId={profile.profile_id} currentJob={currentJobOf(profile)} />
          <IssuesPanel
            key={profile.profile_id}
            profileId={profile.profile_id}
            issues={profile.UserIssues}
            canEdit={canEdit}
            onChange={(issues) => show({ ...profile, UserIssues: issues })}
          />
        </div>
      </div>

      {canEdit && (
        <>
          <EditProfileDialog
            open={editing}
            profile={profile}
            isContributor={user?.contributor === true}
            isOwn={isOwn}
            onClose={() => setEditing(false)}
            onSaved={(saved) => {
              setEditing(false);
              show(saved);
            }}
            onPictureChanged={(url) => show({ ...profile, profile_picture: url })}
          />
          <JobDialog
            mode={jobDialog}
            profileId={profile.profile_id}
            jobs={profile.JobExperiences}
            onClose={() => setJobDialog(null)}
            onChanged={() => {
              setJobDialog(null);
              reload();
            }}
          />
        </>
      )}
      <ClaimDialog
        profile={claiming ? profile : null}
        onClose={() => setClaiming(false)}
        onClaimed={(claimed) => {
          setClaiming(false);
          setProfileId(claimed.profile_id);
          setClaimedNow(claimed.user_id !== null);
          setClaimedHere(true);
          show(claimed);
        }}
      />
    </div>
  );
}

/** What the claimant of a pending claim sees on the profile: it is not theirs to change until confirmed. */
function ClaimPendingNotice({ ref }: { ref: RefObject<HTMLElement | null> }) {
  return (
    <section
      ref={ref}
      tabIndex={-1}
      className="gold-panel prof-pending"
      role="status"
      aria-labelledby="prof-pending-title"
    >
      <Hourglass className="prof-pending__icon" size={22} aria-hidden="true" />
      <div className="prof-pending__body">
        <h2 id="prof-pending-title" className="prof-pending__title">
          Your claim is pending review
        </h2>
        <p className="prof-pending__text">
          Thanks for claiming this profile. Rotunda will reach out to confirm that it is yours. Until a
          contributor confirms your claim, the profile stays as it is: you cannot change it or post as it.
        </p>
      </div>
    </section>
  );
}

function NotFound() {
  return (
    <NotFoundPanel
      title="This profile is not in session."
      text="It may have been removed, or the link may be mistyped. The directory lists every member."
    >
      <Link to="/directory" className="button button--primary">
        <ArrowLeft size={16} aria-hidden="true" />
        Back to the directory
      </Link>
    </NotFoundPanel>
  );
}
