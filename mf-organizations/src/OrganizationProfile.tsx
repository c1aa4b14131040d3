// One organization's profile (/organization/:id), exposed to the shell as 'mf_organizations/OrganizationProfile':
// logo, name, contact details and social links; an edit (pencil) button for contributors that opens the Edit
// Organization dialog; and the People tab, with Divisions beside it when the organization has divisions
// (docs/adr/0010). An unknown id shows a not-found panel with the way back to the list.
import { ORGANIZATION_FIELD_LABELS } from '@rotunda/rules';
import { useIsContributor, useUser } from '@rotunda/session';
import {
  ErrorLine,
  fetchOrganizationColleagues,
  HistorySection,
  NotFoundPanel,
  Spinner,
  Tabs,
  useRecord,
} from '@rotunda/ui';
import { ArrowLeft, Pencil } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { fetchOrganization, fetchOrganizationHistory } from './api';
import { OrgLogo } from './common/OrgLogo';
import { EditOrganizationDialog } from './edit/EditOrganizationDialog';
import { ContactDetails } from './profile/ContactDetails';
import { DivisionsPanel } from './profile/DivisionsPanel';
import { showsDivisionsTab } from './profile/divisions';
import { PeoplePanel, type PeopleState } from './profile/PeoplePanel';
import { peopleFrom } from './profile/people';
import '@rotunda/ui/controls.css';
import '@rotunda/ui/page.css';
import '@rotunda/ui/contact-list.css';
import '@rotunda/ui/states.css';
import './common/organization-badges.css';
import './profile/organization-profile.css';

type TabKey = 'people' | 'divisions';

export default function OrganizationProfile() {
  const { id = '' } = useParams();
  const [editing, setEditing] = useState(false);
  const [tab, setTab] = useState<TabKey>('people');
  const isContributor = useIsContributor();
  // Another organization starts over: a spinner, and the People tab.
  const { state, reload, update } = useRecord(
    id,
    fetchOrganization,
    'The organization could not be loaded',
    () => setTab('people'),
  );
  const people = usePeople(state.status === 'ready' ? state.record.organization_id : null);

  if (state.status === 'loading') {
    return (
      <div className="status-panel status-panel--page">
        <Spinner label="Loading organization" />
      </div>
    );
  }
  if (state.status === 'not-found') return <NotFound />;
  if (state.status === 'error') {
    return (
      <div className="page">
        <BackLink />
        <ErrorLine onRetry={reload}>
          This organization could not be loaded right now. Please try again in a moment.
        </ErrorLine>
      </div>
    );
  }

  const { record: organization } = state;
  const divisions = organization.Divisions ?? [];
  const withDivisions = showsDivisionsTab(divisions);
  const peoplePanel = () => (
    <PeoplePanel key={organization.organization_id} state={people} divisions={divisions} />
  );

  return (
    <div className="page orgs-profile">
      <BackLink />
      <header className="orgs-profile__header">
        <OrgLogo name={organization.organization_name} logo={organization.logo} size="large" />
        <div className="orgs-profile__heading">
          <h1 className="page-title">{organization.organization_name}</h1>
          <p className="orgs-profile__group">
            <span className="chip orgs-chip">{organization.group_type}</span>
          </p>
        </div>
        {isContributor && (
          <button
            type="button"
            className="button button--secondary orgs-profile__edit"
            onClick={() => setEditing(true)}
            aria-haspopup="dialog"
            aria-label="Edit organization"
          >
            <Pencil size={16} aria-hidden="true" />
            Edit
          </button>
        )}
      </header>

      <div className="orgs-profile__columns">
        <section className="panel orgs-profile__contact" aria-labelledby="orgs-contact-title">
          <h2 id="orgs-contact-title" className="orgs-section-title">
            Contact
          </h2>
          <ContactDetails organization={organization} />
        </section>

        <section className="panel orgs-profile__main" aria-label="People and divisions">
          {withDivisions ? (
            <Tabs<TabKey>
              label="Organization sections"
              selected={tab}
              onSelect={setTab}
              tabs={[
                { key: 'people', label: 'People', render: peoplePanel },
                {
                  key: 'divisions',
                  label: 'Divisions',
                  render: () => <DivisionsPanel divisions={divisions} />,
                },
              ]}
            />
          ) : (
            <>
              <h2 className="orgs-section-title">People</h2>
              {peoplePanel()}
            </>
          )}
        </section>
      </div>

      {isContributor && (
        <HistorySection
          load={(signal) => fetchOrganizationHistory(organization.organization_id, signal)}
          refreshKey={organization}
          panelClassName="panel"
          titleClassName="orgs-section-title"
          fieldNames={ORGANIZATION_FIELD_LABELS}
        />
      )}

      {isContributor && (
        <EditOrganizationDialog
          open={editing}
          organization={organization}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            reload();
          }}
          onLogoChanged={(logo) => update((current) => ({ ...current, logo }))}
        />
      )}
    </div>
  );
}

/** The organization's people from the profile service, without the member's own; a failure offers to retry. */
function usePeople(organizationId: number | null): PeopleState {
  const ownProfileId = useUser()?.profile_id ?? null;
  const [state, setState] = useState<PeopleState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // `attempt` is a dependency on purpose: bumping it (the error line's retry) fetches again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-triggers the load
  useEffect(() => {
    if (organizationId === null) return;
    const controller = new AbortController();
    setState({ status: 'loading' });
    fetchOrganizationColleagues(organizationId, controller.signal).then(
      (colleagues) => setState({ status: 'ready', people: peopleFrom(colleagues, ownProfileId) }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('The people of the organization could not be loaded', error);
        setState({ status: 'error', retry: () => setAttempt((n) => n + 1) });
      },
    );
    return () => controller.abort();
  }, [organizationId, ownProfileId, attempt]);
  return state;
}

function BackLink() {
  return (
    <Link to="/organizations" className="orgs-back">
      <ArrowLeft size={16} aria-hidden="true" />
      All organizations
    </Link>
  );
}

function NotFound() {
  return (
    <NotFoundPanel
      title="This organization is not in session."
      text="It may have been removed, or the link may be mistyped. The list has every organization members can see."
    >
      <Link to="/organizations" className="button button--primary">
        <ArrowLeft size={16} aria-hidden="true" />
        Back to organizations
      </Link>
    </NotFoundPanel>
  );
}
