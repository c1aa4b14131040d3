// "Your reports" (ADR 0041): a signed-in member's quiet entry on the public square to what they reported and
// what became of each report: waiting for a contributor, or reviewed (no action taken, left up, hidden or
// removed). Until notifications exist, this list is the reporter's notice of the outcome. Read afresh at each
// opening; a removed post's or comment's text is never shown (the server sends none).
import { formatPostedOn, type ModerationAction, REPORT_REASON_LABELS } from '@rotunda/rules';
import { useUser } from '@rotunda/session';
import { Dialog, ErrorLine } from '@rotunda/ui';
import { Flag } from 'lucide-react';
import { useId, useState } from 'react';
import { fetchMyReports, type MyReport } from '../api';
import { useOpenedOnce } from '../common/useOpenedOnce';
import { type Loaded, useLoaded } from '../moderation/useLoaded';
import '@rotunda/ui/page.css';
import '@rotunda/ui/states.css';
import './report.css';

/** The most reports the server answers (the newest). */
const MY_REPORTS_MAX = 100;

const DECIDED: Record<ModerationAction, string> = {
  // Dismissing closes the reports and changes nothing a contributor decided before.
  dismiss: 'Reviewed: no action taken',
  restore: 'Reviewed: left up',
  hide: 'Reviewed: hidden',
  remove: 'Reviewed: removed',
};

/** What became of a report, in words. */
export function outcomeOf(report: Pick<MyReport, 'status' | 'outcome'>): string {
  if (report.status === 'open') return 'Waiting for a contributor';
  return report.outcome ? DECIDED[report.outcome] : 'Reviewed';
}

/** The entry, for signed-in members only; the dialog's code is part of the square's (it is small). */
export function MyReportsButton() {
  const user = useUser();
  const [open, setOpen] = useState(false);
  const opened = useOpenedOnce(open);
  if (!user) return null;
  return (
    <>
      <button
        type="button"
        className="button button--quiet my-reports-button"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <Flag size={16} aria-hidden="true" />
        Your reports
      </button>
      {opened && (
        <Dialog
          open={open}
          title="Your reports"
          description="What you reported, and what the contributors decided."
          onClose={() => setOpen(false)}
        >
          {/* Asked afresh at each opening: a contributor may have decided meanwhile. */}
          {open && <MyReportsList />}
        </Dialog>
      )}
    </>
  );
}

function summaryOf(state: Loaded<MyReport[]>): string {
  if (state.status === 'loading') return 'Loading your reports…';
  if (state.status === 'failed') return '';
  const reports = state.items;
  if (reports.length === 0)
    return 'You have not reported anything. Use Report on a post or comment to tell the contributors about it.';
  const waiting = reports.filter((report) => report.status === 'open').length;
  const count =
    reports.length >= MY_REPORTS_MAX
      ? `Your latest ${reports.length} reports`
      : reports.length === 1
        ? '1 report'
        : `${reports.length} reports`;
  return `${count}: ${waiting} waiting for a contributor, ${reports.length - waiting} reviewed.`;
}

function MyReportsList() {
  const { state, reload } = useLoaded(fetchMyReports, 'Your reports could not be loaded');
  return (
    <div className="dialog__body my-reports">
      {/* The focus starts here, above the list, so that it is read from the top; the count is announced. */}
      <p className="my-reports__summary" role="status" tabIndex={-1} data-autofocus>
        {summaryOf(state)}
      </p>
      {state.status === 'failed' && (
        <ErrorLine onRetry={reload}>Your reports could not be loaded. Please try again.</ErrorLine>
      )}
      {state.status === 'ready' && state.items.length > 0 && (
        <ul className="my-reports__list">
          {state.items.map((report) => (
            <MyReportItem key={report.report_id} report={report} />
          ))}
        </ul>
      )}
    </div>
  );
}

function MyReportItem({ report }: { report: MyReport }) {
  const headingId = useId();
  const noun = report.target_type;
  const tone = report.status === 'open' ? 'waiting' : report.outcome || 'dismiss';
  return (
    <li className="my-reports__item">
      <article aria-labelledby={headingId}>
        <div className="my-reports__top">
          <span className="chip">{noun === 'post' ? 'Post' : 'Comment'}</span>
          <span className={`my-reports__outcome my-reports__outcome--${tone}`}>{outcomeOf(report)}</span>
        </div>
        <h3
          id={headingId}
          className={report.excerpt ? 'my-reports__excerpt' : 'my-reports__excerpt my-reports__excerpt--gone'}
        >
          {report.excerpt || `This ${noun} was removed`}
        </h3>
        <dl className="my-reports__facts">
          <div>
            <dt>Reason</dt>
            <dd>{REPORT_REASON_LABELS[report.reason] ?? report.reason}</dd>
          </div>
          <div>
            <dt>Reported</dt>
            <dd>
              <time dateTime={report.created_at}>{formatPostedOn(report.created_at)}</time>
            </dd>
          </div>
          {report.decided_at && (
            <div>
              <dt>Reviewed</dt>
              <dd>
                <time dateTime={report.decided_at}>{formatPostedOn(report.decided_at)}</time>
              </dd>
            </div>
          )}
          {report.note && (
            <div className="my-reports__note">
              <dt>Your note</dt>
              <dd>{report.note}</dd>
            </div>
          )}
        </dl>
      </article>
    </li>
  );
}
