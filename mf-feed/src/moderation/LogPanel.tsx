// The moderation log (ADR 0041): every decision, automatic hiding, suspension and lifting, newest first, with
// when, who, what, on what and why. The member a suspension concerns is named from the reports (a contributor
// suspends an author from the queue); their latest suspension, unless lifted since, can be lifted in one click.
import { formatPostedOn, fullName } from '@rotunda/rules';
import { ErrorLine, refusalOr, Spinner } from '@rotunda/ui';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { fetchLog, fetchReports, type LogAction, type LogEntry, liftSuspension } from './api';
import { useLoaded } from './useLoaded';

const ACTION_LABELS: Record<LogAction, string> = {
  dismiss: 'Dismissed',
  hide: 'Hidden',
  restore: 'Restored',
  remove: 'Removed',
  auto_hide: 'Hidden after reports',
  suspend: 'Suspended',
  lift: 'Lifted suspension',
};

interface Member {
  name: string;
  profileId: number | null;
}

interface LogView {
  entries: LogEntry[];
  /** The reported authors by user id. */
  members: Map<string, Member>;
}

async function loadLog(signal: AbortSignal): Promise<LogView> {
  const [entries, open, closed] = await Promise.all([
    fetchLog(signal),
    fetchReports('open', signal),
    fetchReports('closed', signal),
  ]);
  const members = new Map<string, Member>();
  for (const { author } of [...open, ...closed])
    members.set(author.user_id, { name: fullName(author), profileId: author.profile_id });
  return { entries, members };
}

/** The entries whose suspension is the member's latest step (not lifted, not replaced since). */
function liftable(entries: readonly LogEntry[]): Set<LogEntry> {
  const seen = new Set<string>();
  const running = new Set<LogEntry>();
  for (const entry of entries) {
    if (entry.action !== 'suspend' && entry.action !== 'lift') continue;
    if (seen.has(entry.user_id)) continue;
    seen.add(entry.user_id);
    if (entry.action === 'suspend') running.add(entry);
  }
  return running;
}

const liftFailed = refusalOr({
  logged: 'The suspension could not be lifted',
  shown: 'The suspension could not be lifted right now. Please try again in a moment.',
});

export function LogPanel() {
  const { state, reload } = useLoaded(loadLog, 'The moderation log could not be loaded');
  const [message, setMessage] = useState<string | null>(null);
  const [lifting, setLifting] = useState<string | null>(null);
  const messageLine = useRef<HTMLParagraphElement>(null);

  // The Lift button goes once the suspension is lifted: the focus goes to what happened.
  useEffect(() => {
    if (message) messageLine.current?.focus();
  }, [message]);

  if (state.status === 'loading') return <Spinner label="Loading the log" />;
  if (state.status === 'failed')
    return <ErrorLine onRetry={reload}>The log could not be loaded. Please try again.</ErrorLine>;
  const { entries, members } = state.items;
  if (entries.length === 0) return <p className="mod-empty">Nothing has been decided yet.</p>;
  const running = liftable(entries);

  const lift = async (userId: string) => {
    setLifting(userId);
    setMessage(null);
    try {
      await liftSuspension(userId);
      setMessage('The suspension is lifted.');
      reload();
    } catch (failure) {
      setMessage(liftFailed(failure));
    } finally {
      setLifting(null);
    }
  };

  const memberCell = (userId: string) => {
    const member = members.get(userId);
    if (!member) return 'A member';
    return member.profileId === null ? (
      member.name
    ) : (
      <Link to={`/profile/${member.profileId}`}>{member.name}</Link>
    );
  };

  return (
    <>
      <p ref={messageLine} tabIndex={-1} className="mod-log__message" role="status">
        {message}
      </p>
      {/* Scrolls sideways on a phone; focusable so that keyboard users can scroll it too. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus (WCAG 2.1.1) */}
      <section className="mod-log" aria-label="Moderation log" tabIndex={0}>
        <table className="mod-log__table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">On</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <time dateTime={entry.at}>{formatPostedOn(entry.at)}</time>
                </td>
                <td>{fullName(entry.actor)}</td>
                <td>{ACTION_LABELS[entry.action] ?? entry.action}</td>
                <td>
                  {entry.target_type === null ? (
                    memberCell(entry.user_id)
                  ) : (
                    <>
                      {`${entry.target_type === 'post' ? 'Post' : 'Comment'} ${entry.target_id} by `}
                      {memberCell(entry.user_id)}
                    </>
                  )}
                  {running.has(entry) && (
                    <button
                      type="button"
                      className="button button--quiet mod-log__lift"
                      aria-label={`Lift the suspension of ${members.get(entry.user_id)?.name ?? 'this member'}`}
                      disabled={lifting === entry.user_id}
                      onClick={() => lift(entry.user_id)}
                    >
                      Lift
                    </button>
                  )}
                </td>
                <td className="mod-log__reason">{entry.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
