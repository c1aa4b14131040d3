// The /admin screen's agencies (docs/agency-sign-in.md, Keycloak mode only: the section is absent when the
// server says agency sign-in is not available): each agency whose own identity provider signs its staff in,
// with the addresses its IT office must enter on their side (each with a Copy button); a form to register one
// (OpenID Connect by its discovery URL, SAML 2.0 by its metadata URL), the server's refusals next to it; and
// removal after a confirmation, since a removed provider cannot be put back without its client secret.
import {
  AGENCY_MESSAGES,
  AGENCY_PROTOCOL_LABELS,
  cleanAgencyDomains,
  splitEmailDomains,
} from '@rotunda/rules';
import { Dialog, ErrorLine, FormSection, refusalOr, Spinner, useAction } from '@rotunda/ui';
import { Building2, Copy, Plus, X } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { TextField } from '../auth/fields';
import {
  type Agencies,
  type Agency,
  type AgencyProtocol,
  addAgency,
  fetchAgencies,
  removeAgency,
} from './api';

export function AgenciesSection({ onChange }: { onChange: () => void }) {
  const [answer, setAnswer] = useState<Agencies | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [status, setStatus] = useState('');
  const [removing, setRemoving] = useState<Agency | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-triggers the load
  useEffect(() => {
    const controller = new AbortController();
    setLoadFailed(false);
    fetchAgencies(controller.signal).then(setAnswer, (error: unknown) => {
      if (controller.signal.aborted) return;
      console.error('Could not load the agencies', error);
      setLoadFailed(true);
    });
    return () => controller.abort();
  }, [attempt]);

  // Built-in mode: no agency signs anyone in, so there is nothing to show. While loading, nothing either: the
  // section would flash and vanish there.
  if (!loadFailed && !answer?.available) return null;

  const added = (agency: Agency) => {
    setAnswer((shown) => shown && { ...shown, agencies: [...shown.agencies, agency] });
    setStatus(`Added ${agency.name}. Give its IT office the addresses below.`);
    onChange();
  };

  const removed = (agency: Agency) => {
    setAnswer(
      (shown) => shown && { ...shown, agencies: shown.agencies.filter((one) => one.alias !== agency.alias) },
    );
    setRemoving(null);
    setStatus(`Removed ${agency.name}. Its members now sign in with a Rotunda password.`);
    onChange();
    // Its Remove button, which opened the confirmation, is gone: the focus starts again at the section.
    heading.current?.focus();
  };

  return (
    <section className="panel admin-section" aria-labelledby="admin-agencies">
      <h2 id="admin-agencies" className="admin-section__title" ref={heading} tabIndex={-1}>
        <Building2 size={20} aria-hidden="true" /> Agencies
      </h2>
      <p className="admin-note">
        Staff of these agencies sign in with their agency’s own account: Rotunda sends them there by their
        email’s domain.
      </p>
      {loadFailed && (
        <ErrorLine onRetry={() => setAttempt((n) => n + 1)}>
          The agencies could not be loaded. Please try again.
        </ErrorLine>
      )}
      {answer && answer.agencies.length === 0 && <p className="admin-note">No agencies yet.</p>}
      {answer && answer.agencies.length > 0 && (
        <ul className="admin-agencies" aria-labelledby="admin-agencies">
          {answer.agencies.map((agency) => (
            <AgencyItem key={agency.alias} agency={agency} onRemove={() => setRemoving(agency)} />
          ))}
        </ul>
      )}
      <div role="status" className="admin-status">
        {status && <p className="form-success">{status}</p>}
      </div>
      {answer && <AddAgencyForm onAdded={added} />}
      <RemoveAgencyDialog agency={removing} onCancel={() => setRemoving(null)} onRemoved={removed} />
    </section>
  );
}

function AgencyItem({ agency, onRemove }: { agency: Agency; onRemove: () => void }) {
  const titleId = `admin-agency-${agency.alias}`;
  const [copied, setCopied] = useState('');
  const addresses: [string, string][] = [
    ['Redirect URI', agency.redirect_uri],
    ['Logout URL', agency.logout_url],
    ...(agency.protocol === 'saml'
      ? ([['SP metadata URL', agency.sp_metadata_url]] as [string, string][])
      : []),
  ];

  const copy = async (label: string, value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(`Copied the ${label}.`);
    } catch {
      setCopied(`Could not copy the ${label}: select it and copy it yourself.`);
    }
  };

  return (
    <li className="admin-agency">
      <div className="admin-agency__head">
        <h3 id={titleId} className="admin-list__title">
          {agency.name}
        </h3>
        <button
          type="button"
          className="button button--quiet admin-value__remove"
          aria-label={`Remove ${agency.name}`}
          onClick={onRemove}
        >
          <X size={16} aria-hidden="true" />
          Remove
        </button>
      </div>
      <p className="admin-note admin-agency__facts">
        {AGENCY_PROTOCOL_LABELS[agency.protocol]} · {agency.domains.join(', ')}
      </p>
      <dl className="admin-agency__addresses">
        {addresses.map(([label, value]) => (
          <div key={label} className="admin-agency__address">
            <dt>{label}</dt>
            <dd>
              <code className="admin-value__text">{value}</code>
              <button
                type="button"
                className="button button--secondary admin-agency__copy"
                aria-label={`Copy the ${label} of ${agency.name}`}
                onClick={() => void copy(label, value)}
              >
                <Copy size={16} aria-hidden="true" />
                Copy
              </button>
            </dd>
          </div>
        ))}
      </dl>
      <div role="status" className="admin-status">
        {copied && <p className="admin-note">{copied}</p>}
      </div>
    </li>
  );
}

interface AgencyDraft {
  name: string;
  protocol: AgencyProtocol;
  domains: string;
  metadata_url: string;
  client_id: string;
  client_secret: string;
}

const EMPTY: AgencyDraft = {
  name: '',
  protocol: 'oidc',
  domains: '',
  metadata_url: '',
  client_id: '',
  client_secret: '',
};

/** The browser's own check of the form: what the member must fix first, or null. */
function problemOf(draft: AgencyDraft, domains: ReturnType<typeof cleanAgencyDomains>): string | null {
  if (draft.name.trim() === '') return AGENCY_MESSAGES.nameRequired;
  if (splitEmailDomains(draft.domains).length === 0) return 'Enter the agency’s email domains.';
  if (domains.problem !== undefined) return domains.problem;
  if (draft.metadata_url.trim() === '')
    return draft.protocol === 'oidc' ? 'Enter the discovery URL.' : 'Enter the metadata URL.';
  return null;
}

function AddAgencyForm({ onAdded }: { onAdded: (agency: Agency) => void }) {
  const [draft, setDraft] = useState<AgencyDraft>(EMPTY);
  const add = useAction();
  const errorId = useId();
  const nameInput = useRef<HTMLInputElement>(null);
  const oidc = draft.protocol === 'oidc';

  const set = (key: keyof AgencyDraft) => (event: { target: { value: string } }) => {
    setDraft((current) => ({ ...current, [key]: event.target.value }));
    add.setError(null);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const domains = cleanAgencyDomains(splitEmailDomains(draft.domains));
    void add.run(
      async () => {
        if (domains.problem !== undefined) return;
        const agency = await addAgency({
          name: draft.name.trim(),
          protocol: draft.protocol,
          domains: domains.domains,
          metadata_url: draft.metadata_url.trim(),
          ...(oidc && { client_id: draft.client_id.trim(), client_secret: draft.client_secret }),
        });
        setDraft(EMPTY);
        onAdded(agency);
        nameInput.current?.focus();
      },
      refusalOr({
        logged: 'Could not add an agency',
        shown: 'The agency could not be added. Please try again.',
      }),
      problemOf(draft, domains),
    );
  };

  // The line under the form says what to fix; every field points to it while it shows.
  const described = add.error ? { 'aria-describedby': errorId } : {};
  return (
    <form className="admin-agency-form" onSubmit={submit} aria-busy={add.busy} noValidate>
      <FormSection legend="Add an agency">
        <TextField
          ref={nameInput}
          label="Agency name"
          name="agency-name"
          autoComplete="off"
          value={draft.name}
          onChange={set('name')}
          {...described}
        />
        <fieldset className="admin-choice">
          <legend className="field__label">Protocol</legend>
          {(['oidc', 'saml'] as const).map((protocol) => (
            <label key={protocol} className="admin-choice__option">
              <input
                type="radio"
                name="agency-protocol"
                value={protocol}
                checked={draft.protocol === protocol}
                onChange={() => {
                  setDraft((current) => ({ ...current, protocol }));
                  add.setError(null);
                }}
              />
              {AGENCY_PROTOCOL_LABELS[protocol]}
            </label>
          ))}
        </fieldset>
        <div className="field form-field--wide">
          <label className="field__label" htmlFor={`${errorId}-domains`}>
            Email domains
          </label>
          <textarea
            id={`${errorId}-domains`}
            className="field__input admin-agency-form__domains"
            name="agency-domains"
            rows={3}
            spellCheck={false}
            aria-describedby={add.error ? `${errorId}-hint ${errorId}` : `${errorId}-hint`}
            value={draft.domains}
            onChange={set('domains')}
          />
          <span id={`${errorId}-hint`} className="admin-note">
            One per line, or separated by commas.
          </span>
        </div>
        <TextField
          label={oidc ? 'Discovery URL' : 'Metadata URL'}
          type="url"
          name="agency-metadata-url"
          autoComplete="off"
          spellCheck={false}
          placeholder={
            oidc
              ? 'https://login.agency.gov/.well-known/openid-configuration'
              : 'https://sts.agency.gov/FederationMetadata/2007-06/FederationMetadata.xml'
          }
          value={draft.metadata_url}
          onChange={set('metadata_url')}
          {...described}
        />
        {oidc && (
          <>
            <TextField
              label="Client ID"
              name="agency-client-id"
              autoComplete="off"
              spellCheck={false}
              value={draft.client_id}
              onChange={set('client_id')}
            />
            <TextField
              label="Client secret"
              type="password"
              name="agency-client-secret"
              autoComplete="off"
              value={draft.client_secret}
              onChange={set('client_secret')}
            />
          </>
        )}
      </FormSection>
      <div className="form-actions admin-roles__actions">
        <button type="submit" className="button button--primary" disabled={add.busy}>
          {add.busy ? <Spinner size="inline" /> : <Plus size={16} aria-hidden="true" />}
          Add agency
        </button>
      </div>
      {add.error && (
        <p id={errorId} className="form-error" role="alert">
          {add.error}
        </p>
      )}
    </form>
  );
}

interface RemoveAgencyDialogProps {
  agency: Agency | null;
  onCancel: () => void;
  onRemoved: (agency: Agency) => void;
}

function RemoveAgencyDialog({ agency, onCancel, onRemoved }: RemoveAgencyDialogProps) {
  const remove = useAction();

  const cancel = () => {
    remove.setError(null);
    onCancel();
  };

  const confirm = () => {
    if (!agency) return;
    void remove.run(
      async () => {
        await removeAgency(agency.alias);
        onRemoved(agency);
      },
      refusalOr({
        logged: 'Could not remove an agency',
        shown: `${agency.name} could not be removed. Please try again.`,
      }),
    );
  };

  return (
    <Dialog open={agency !== null} title={`Remove ${agency?.name ?? 'the agency'}?`} onClose={cancel}>
      <div className="dialog-form">
        <div className="dialog__body admin-confirm">
          <p>
            Its staff will no longer sign in through their agency. They keep their Rotunda accounts, and sign
            in with a password they set by “Forgot password”. Adding the agency again needs its client details
            again.
          </p>
          {remove.error && (
            <p className="form-error" role="alert">
              {remove.error}
            </p>
          )}
        </div>
        <div className="dialog-form__footer">
          <div className="form-actions">
            <button
              type="button"
              className="button button--secondary"
              onClick={cancel}
              disabled={remove.busy}
              data-autofocus
            >
              Cancel
            </button>
            <button type="button" className="button admin-danger" onClick={confirm} disabled={remove.busy}>
              {remove.busy && <Spinner size="inline" />}
              {remove.busy ? 'Removing…' : 'Remove'}
            </button>
          </div>
        </div>
      </div>
    </Dialog>
  );
}
