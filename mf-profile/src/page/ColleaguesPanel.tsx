// Colleagues (docs/product.md#2-screens-and-routes, #9-business-constants-and-limits): people with a current
// job at the organization of this profile's current job, the profile itself left out, five of them at random,
// each a link to their profile; the whole list opens in a dialog. A profile without a current job has no
// colleagues to show.
import { type Colleague, Dialog, fetchOrganizationColleagues, Spinner } from '@rotunda/ui';
import { Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { Job } from '../api';
import { Avatar } from '../common/Avatar';
import { Panel } from '../common/Panel';
import { COLLEAGUES_SHOWN, colleaguesOf, fullName } from '../profile-rules';

type State = { status: 'loading' } | { status: 'ready'; colleagues: Colleague[] };

export function ColleaguesPanel({
  profileId,
  currentJob,
}: {
  profileId: number;
  currentJob: Job | undefined;
}) {
  const organizationId = currentJob?.organization_id ?? null;
  const [state, setState] = useState<State>({ status: 'loading' });
  const [showingAll, setShowingAll] = useState(false);

  useEffect(() => {
    if (organizationId === null) return;
    const controller = new AbortController();
    setState({ status: 'loading' });
    fetchOrganizationColleagues(organizationId, controller.signal).then(
      (found) => setState({ status: 'ready', colleagues: colleaguesOf(found, profileId) }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('The colleagues could not be loaded', error);
        setState({ status: 'ready', colleagues: [] });
      },
    );
    return () => controller.abort();
  }, [organizationId, profileId]);

  const organizationName = currentJob?.Organization.organization_name ?? '';
  const colleagues = state.status === 'ready' ? state.colleagues : [];

  return (
    <Panel title="Colleagues">
      {organizationId === null ? (
        <p className="prof-empty">Colleagues show once a current position is listed.</p>
      ) : state.status === 'loading' ? (
        <div className="status-panel prof-status--small">
          <Spinner label="Loading colleagues" size="small" />
        </div>
      ) : colleagues.length === 0 ? (
        <p className="prof-empty">No colleagues listed yet.</p>
      ) : (
        <>
          <p className="prof-hint">At {organizationName}</p>
          <ColleagueList colleagues={colleagues.slice(0, COLLEAGUES_SHOWN)} />
          {colleagues.length > COLLEAGUES_SHOWN && (
            <button
              type="button"
              className="button button--quiet button--block prof-panel__more"
              aria-haspopup="dialog"
              onClick={() => setShowingAll(true)}
            >
              <Users size={16} aria-hidden="true" />
              See all {colleagues.length} colleagues
            </button>
          )}
        </>
      )}
      <Dialog
        open={showingAll}
        title="All colleagues"
        description={`Everyone listed with a current position at ${organizationName}.`}
        onClose={() => setShowingAll(false)}
      >
        <div className="dialog__body">
          <ColleagueList colleagues={colleagues} />
        </div>
      </Dialog>
    </Panel>
  );
}

function ColleagueList({ colleagues }: { colleagues: readonly Colleague[] }) {
  return (
    <ul className="prof-people">
      {colleagues.map((colleague) => {
        const info = colleague.ProfileInfo;
        const id = info?.profile_id ?? colleague.profile_id;
        const person = { first_name: info?.first_name ?? '', last_name: info?.last_name ?? '' };
        return (
          <li key={id} className="prof-person">
            <Avatar person={person} picture={info?.profile_picture ?? null} size="small" />
            <div className="prof-person__body">
              <Link to={`/profile/${id}`} className="prof-person__name">
                {fullName(person) || 'Member'}
              </Link>
              {colleague.title && <span className="prof-person__title">{colleague.title}</span>}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
