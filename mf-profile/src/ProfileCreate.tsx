// Profile creation (/profile/create), exposed to the shell as 'mf_profile/ProfileCreate'
// (docs/product.md#2-screens-and-routes, #4-states-and-transitions): a member who already owns a profile goes
// to it; otherwise the unclaimed profiles matching their name and email are offered to claim (step 0, skipped
// when none match), then personal information (which creates the profile), the current job, and the bio with
// issue areas, after which the member lands on the public square.
//
// The new profile's id goes into the shared session when the member leaves this screen (finished or not),
// not at once: the shell sends anyone whose session holds a profile id away from /profile/create, which would
// cut the flow short after step 1. Later steps use the id kept here.
import { setProfileId, useUser } from '@rotunda/session';
import { Page, Spinner } from '@rotunda/ui';
import { UserPlus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { findMatchingProfiles, findOwnProfileId, type ListedProfile } from './api';
import { BioStep } from './create/BioStep';
import { JobStep } from './create/JobStep';
import { MatchStep } from './create/MatchStep';
import { PersonalStep } from './create/PersonalStep';
import '@rotunda/ui/controls.css';
import '@rotunda/ui/forms.css';
import '@rotunda/ui/page.css';
import '@rotunda/ui/states.css';
import './profile-common.css';
import './create/profile-create.css';

type Stage =
  | { kind: 'checking' }
  | { kind: 'matches'; profiles: ListedProfile[] }
  | { kind: 'personal' }
  | { kind: 'job'; profileId: number }
  | { kind: 'bio'; profileId: number };

const STEPS = [
  { kind: 'personal', title: 'Personal information' },
  { kind: 'job', title: 'Current job' },
  { kind: 'bio', title: 'Bio and issue areas' },
] as const;

export default function ProfileCreate() {
  const user = useUser();
  const navigate = useNavigate();
  const [stage, setStage] = useState<Stage>({ kind: 'checking' });
  const owned = useRef<number | null>(null);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const userId = user?.user_id ?? null;
  const sessionProfileId = user?.profile_id ?? null;

  // Leaving the screen, finished or not, hands the profile made or claimed here to the session.
  useEffect(
    () => () => {
      if (owned.current !== null) setProfileId(owned.current);
    },
    [],
  );

  // Who is this member: an owner (to their profile), someone with matching unclaimed profiles, or new.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per member; their name is read as it is then
  useEffect(() => {
    if (!user) return;
    if (sessionProfileId !== null) {
      navigate(`/profile/${sessionProfileId}`, { replace: true });
      return;
    }
    const controller = new AbortController();
    const logUnlessAborted = (what: string) => (error: unknown) => {
      if (!controller.signal.aborted) console.error(what, error);
      return null;
    };
    (async () => {
      const own = await findOwnProfileId(controller.signal).catch(
        logUnlessAborted('The own-profile check failed'),
      );
      if (controller.signal.aborted) return;
      if (own !== null) {
        setProfileId(own);
        navigate(`/profile/${own}`, { replace: true });
        return;
      }
      const matches = await findMatchingProfiles(
        { first_name: user.first_name, last_name: user.last_name, email: user.email },
        controller.signal,
      ).catch(logUnlessAborted('The matching profiles could not be loaded'));
      if (controller.signal.aborted) return;
      setStage((current) =>
        current.kind !== 'checking'
          ? current
          : matches && matches.length > 0
            ? { kind: 'matches', profiles: matches }
            : { kind: 'personal' },
      );
    })();
    return () => controller.abort();
  }, [userId, sessionProfileId]);

  // Each new step is announced by moving focus to its heading.
  const stepKind = stage.kind;
  useEffect(() => {
    if (stepKind === 'job' || stepKind === 'bio') stepHeading.current?.focus();
  }, [stepKind]);

  if (!user) return null;
  const welcome = user.first_name ? `Welcome to Rotunda, ${user.first_name}.` : 'Welcome to Rotunda.';
  const header = {
    icon: UserPlus,
    title: 'Create your profile',
    lede: `${welcome} Your profile is how colleagues across state government find you and your work.`,
  };

  if (stage.kind === 'checking') {
    return (
      <Page {...header}>
        <div className="status-panel">
          <Spinner label="Looking for your profile" />
        </div>
      </Page>
    );
  }

  if (stage.kind === 'matches') {
    return (
      <Page {...header}>
        <section className="panel prof-step" aria-labelledby="prof-step-title">
          <h2 id="prof-step-title" className="prof-step__title">
            {stage.profiles.length === 1 ? 'Is this you?' : 'Is one of these you?'}
          </h2>
          <MatchStep
            profiles={stage.profiles}
            onClaimed={(profile) => {
              owned.current = profile.profile_id;
              navigate(`/profile/${profile.profile_id}`);
            }}
            onNoneAreMe={() => setStage({ kind: 'personal' })}
          />
        </section>
      </Page>
    );
  }

  const index = STEPS.findIndex((step) => step.kind === stage.kind);
  const step = STEPS[index] ?? STEPS[0];
  return (
    <Page {...header}>
      <ol className="prof-stepper" aria-label="Steps">
        {STEPS.map((item, position) => (
          <li
            key={item.kind}
            className={`prof-stepper__step${position === index ? ' prof-stepper__step--current' : ''}${position < index ? ' prof-stepper__step--done' : ''}`}
            aria-current={position === index ? 'step' : undefined}
          >
            <span className="prof-stepper__number" aria-hidden="true">
              {position + 1}
            </span>
            {item.title}
          </li>
        ))}
      </ol>
      <section className="panel prof-step" aria-labelledby="prof-step-title">
        <h2 id="prof-step-title" className="prof-step__title" ref={stepHeading} tabIndex={-1}>
          <span className="visually-hidden">{`Step ${index + 1} of ${STEPS.length}: `}</span>
          {step.title}
        </h2>
        {stage.kind === 'personal' && (
          <PersonalStep
            user={user}
            onCreated={(profile) => {
              owned.current = profile.profile_id;
              setStage({ kind: 'job', profileId: profile.profile_id });
            }}
          />
        )}
        {stage.kind === 'job' && (
          <JobStep
            profileId={stage.profileId}
            onSaved={() => setStage({ kind: 'bio', profileId: stage.profileId })}
          />
        )}
        {stage.kind === 'bio' && (
          <BioStep profileId={stage.profileId} onSaved={() => navigate('/public-square')} />
        )}
      </section>
    </Page>
  );
}
