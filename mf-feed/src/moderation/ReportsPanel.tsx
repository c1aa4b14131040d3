// The queue (ADR 0041): one entry per reported post or comment, most reported first, with its excerpt, author (a
// link to their profile), when it was first reported, the reasons, the count and the reporters' notes, and its
// state. Contributors dismiss, hide, restore or remove it, each with a reason, and may suspend its author; the
// entry then shows its new state and that its reports are closed.
import {
  formatPostedOn,
  fullName,
  type ModerationAction,
  REPORT_REASON_LABELS,
  SUSPENSION_DAYS,
} from '@rotunda/rules';
import { ErrorLine, Spinner } from '@rotunda/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  decide,
  fetchReports,
  type ReportedTarget,
  type ReportStatus,
  suspend,
  type TargetState,
} from './api';
import { ReasonDialog } from './ReasonDialog';
import { useLoaded } from './useLoaded';

const STATE_LABELS: Record<TargetState, string> = {
  visible: 'Visible',
  hidden: 'Hidden',
  removed: 'Removed',
};

const ACTION_LABELS: Record<ModerationAction, string> = {
  dismiss: 'Dismiss',
  hide: 'Hide',
  restore: 'Restore',
  remove: 'Remove',
};

/** What each decision does, as its dialog says it. */
const ACTION_EFFECTS: Record<ModerationAction, string> = {
  dismiss: 'The reports are closed and it stays visible (or shows again if reports hid it).',
  hide: 'Only its author and contributors will see it, with your reason.',
  restore: 'Everyone will see it again.',
  remove: 'Nobody will see it any more, its author included.',
};

/** The decisions that change something for a target in this state; dismissing needs open reports. */
function actionsFor(state: TargetState, open: boolean): ModerationAction[] {
  return [
    ...(open ? (['dismiss'] as const) : []),
    ...(state === 'visible' ? (['hide'] as const) : (['restore'] as const)),
    ...(state === 'removed' ? [] : (['remove'] as const)),
  ];
}

const keyOf = (target: Pick<ReportedTarget, 'target_type' | 'target_id'>) =>
  `${target.target_type}:${target.target_id}`;

export function ReportsPanel({ status }: { status: ReportStatus }) {
  const { state, reload, update } = useLoaded(
    (signal) => fetchReports(status, signal),
    `The ${status} reports could not be loaded`,
  );
  // Targets decided on here: their reports are closed now.
  const [decided, setDecided] = useState<ReadonlySet<string>>(new Set());

  if (state.status === 'loading') return <Spinner label="Loading reports" />;
  if (state.status === 'failed')
    return <ErrorLine onRetry={reload}>The reports could not be loaded. Please try again.</ErrorLine>;
  if (state.items.length === 0) return <p className="mod-empty">{`No ${status} reports.`}</p>;

  const onDecided = (target: ReportedTarget, newState: TargetState) => {
    update((items) =>
      items.map((item) => (keyOf(item) === keyOf(target) ? { ...item, state: newState } : item)),
    );
    setDecided((current) => new Set(current).add(keyOf(target)));
  };

  return (
    <ul className="mod-list">
      {state.items.map((target) => (
        <ReportRow
          key={keyOf(target)}
          target={target}
          open={status === 'open' && !decided.has(keyOf(target))}
          onDecided={onDecided}
        />
      ))}
    </ul>
  );
}

interface ReportRowProps {
  target: ReportedTarget;
  /** Its reports are still open. */
  open: boolean;
  onDecided: (target: ReportedTarget, state: TargetState) => void;
}

type Step = { kind: 'decide'; action: ModerationAction } | { kind: 'suspend' } | null;

function ReportRow({ target, open, onDecided }: ReportRowProps) {
  const titleId = useId();
  const [step, setStep] = useState<Step>(null);
  const [done, setDone] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [days, setDays] = useState(String(7));
  const noun = target.target_type;
  const author = fullName(target.author);
  const daysNumber = Number(days);
  const daysMissing =
    Number.isInteger(daysNumber) && daysNumber >= SUSPENSION_DAYS.min && daysNumber <= SUSPENSION_DAYS.max
      ? null
      : `Suspend for ${SUSPENSION_DAYS.min} to ${SUSPENSION_DAYS.max} days.`;

  // A decision changes the buttons, the one that opened the dialog among them: the focus goes to the entry.
  useEffect(() => {
    if (done) heading.current?.focus();
  }, [done]);

  const runDecision = async (action: ModerationAction, reason: string) => {
    const answer = await decide(target, action, reason);
    onDecided(target, answer.state);
    const closed =
      answer.closed_reports === 1 ? '1 report closed' : `${answer.closed_reports} reports closed`;
    setDone(`${STATE_LABELS[answer.state]}. ${closed}.`);
  };

  const runSuspension = async (reason: string) => {
    const answer = await suspend(target.author.user_id, daysNumber, reason);
    setDone(`${author} is suspended until ${formatPostedOn(answer.until)}.`);
  };

  return (
    <li className="mod-row">
      <article aria-labelledby={titleId}>
        <div className="mod-row__top">
          <span className="chip">{noun === 'post' ? 'Post' : 'Comment'}</span>
          <span className={`mod-state mod-state--${target.state}`}>
            {STATE_LABELS[target.state]}
            {target.state === 'hidden' && target.automatic && ' after reports'}
          </span>
        </div>
        <h2 id={titleId} ref={heading} tabIndex={-1} className="mod-row__excerpt">
          {target.excerpt}
        </h2>
        <p className="mod-row__byline">
          {noun === 'post' ? 'Posted by ' : `On post ${target.post_id}, by `}
          {target.author.profile_id === null ? (
            author
          ) : (
            <Link to={`/profile/${target.author.profile_id}`}>{author}</Link>
          )}
          {' · first reported '}
          <time dateTime={target.first_reported_at}>{formatPostedOn(target.first_reported_at)}</time>
        </p>
        <dl className="mod-row__facts">
          <div>
            <dt>Reports</dt>
            <dd>{target.reports_count}</dd>
          </div>
          <div>
            <dt>Reasons</dt>
            <dd>{target.reasons.map((reason) => REPORT_REASON_LABELS[reason] ?? reason).join(', ')}</dd>
          </div>
          {target.notes.length > 0 && (
            <div className="mod-row__notes">
              <dt>Notes</dt>
              <dd>
                <ul>
                  {target.notes.map((note, index) => (
                    // Notes may repeat; their order is the server's, newest first.
                    // biome-ignore lint/suspicious/noArrayIndexKey: a note has no id of its own
                    <li key={index}>{note}</li>
                  ))}
                </ul>
              </dd>
            </div>
          )}
        </dl>
        <div className="mod-row__actions">
          {actionsFor(target.state, open).map((action) => (
            <button
              key={action}
              type="button"
              className={
                action === 'remove' ? 'button button--secondary mod-danger' : 'button button--secondary'
              }
              aria-haspopup="dialog"
              aria-describedby={titleId}
              onClick={() => setStep({ kind: 'decide', action })}
            >
              {ACTION_LABELS[action]}
            </button>
          ))}
          <button
            type="button"
            className="button button--quiet"
            aria-haspopup="dialog"
            onClick={() => setStep({ kind: 'suspend' })}
          >
            {`Suspend ${author}`}
          </button>
        </div>
        <p className="mod-row__done" role="status">
          {done}
        </p>
      </article>
      <ReasonDialog
        open={step?.kind === 'decide'}
        title={step?.kind === 'decide' ? `${ACTION_LABELS[step.action]} this ${noun}` : ''}
        description={
          step?.kind === 'decide' ? `${ACTION_EFFECTS[step.action]} The author reads your reason.` : ''
        }
        confirm={step?.kind === 'decide' ? `${ACTION_LABELS[step.action]} ${noun}` : ''}
        onConfirm={(reason) =>
          step?.kind === 'decide' ? runDecision(step.action, reason) : Promise.resolve()
        }
        onClose={() => setStep(null)}
      />
      <ReasonDialog
        open={step?.kind === 'suspend'}
        title={`Suspend ${author}`}
        description="They can still read, but every post, comment, like and report is refused until it ends. They read your reason."
        confirm="Suspend"
        missing={daysMissing}
        onConfirm={runSuspension}
        onClose={() => setStep(null)}
      >
        <SuspensionDays value={days} onChange={setDays} />
      </ReasonDialog>
    </li>
  );
}

function SuspensionDays({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {`Days (${SUSPENSION_DAYS.min}–${SUSPENSION_DAYS.max})`}
      </label>
      <input
        id={id}
        className="field__input mod-days"
        type="number"
        inputMode="numeric"
        min={SUSPENSION_DAYS.min}
        max={SUSPENSION_DAYS.max}
        required
        data-autofocus
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
