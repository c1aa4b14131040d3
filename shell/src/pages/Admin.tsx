// The access administration screen, /admin, for administrators (docs/product.md#access-administration): who
// may register (approved domains, approved emails, beta testers), each value removable at once with an Undo
// (a confirmation dialog per click slows the common case; undo makes the rare mistake cheap), and added after
// the browser's own check; granting and taking away roles by email, the outcome said; the agencies whose own
// identity providers sign their staff in (Keycloak mode only, admin/AgenciesSection); and the log of every
// change, newest first, with 'Load more'. A button busy with what it started is marked aria-disabled, never
// disabled: a disabled button drops the keyboard focus it holds to the page's start.
import {
  ACCESS_LIST_LABELS,
  ACCESS_LISTS,
  type AccessList,
  ADMIN_LOG_PAGE,
  ADMIN_ROLE_LABELS,
  ADMIN_ROLES,
  type AdminRole,
  checkAccessValue,
} from '@rotunda/rules';
import { ErrorLine, FormSection, Page, refusalOr, Spinner, useAction } from '@rotunda/ui';
import { History, KeyRound, Plus, UserCog, Users, X } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { AgenciesSection } from '../admin/AgenciesSection';
import {
  type AccessLists,
  type AdminLogEntry,
  changeAccessList,
  fetchAccessLists,
  fetchAdminLog,
  setRole,
} from '../admin/api';
import { TextField } from '../auth/fields';
import { fullDate } from '../notifications/time';
import { useHeadingFocus } from './useHeadingFocus';
import '@rotunda/ui/forms.css';
import '@rotunda/ui/states.css';
import '../styles/admin.css';

export function Admin() {
  const frame = useRef<HTMLDivElement>(null);
  useHeadingFocus(frame);
  // Any change made here is a new log entry: the log reloads from its newest.
  const [changes, setChanges] = useState(0);
  const changed = () => setChanges((n) => n + 1);
  return (
    <div ref={frame}>
      <Page
        icon={KeyRound}
        title="Access administration"
        lede="Decide who may register, who curates and who administers, and see every change."
      >
        <RegisterSection onChange={changed} />
        <RolesSection onChange={changed} />
        <AgenciesSection onChange={changed} />
        <LogSection changes={changes} />
      </Page>
    </div>
  );
}

function RegisterSection({ onChange }: { onChange: () => void }) {
  const [lists, setLists] = useState<AccessLists | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-triggers the load
  useEffect(() => {
    const controller = new AbortController();
    setLoadFailed(false);
    fetchAccessLists(controller.signal).then(setLists, (error: unknown) => {
      if (controller.signal.aborted) return;
      console.error('Could not load the access lists', error);
      setLoadFailed(true);
    });
    return () => controller.abort();
  }, [attempt]);

  const kept = (next: AccessLists) => {
    setLists(next);
    onChange();
  };

  return (
    <section className="panel admin-section" aria-labelledby="admin-register">
      <h2 id="admin-register" className="admin-section__title">
        <Users size={20} aria-hidden="true" /> Who may register
      </h2>
      <p className="admin-note">
        Anyone at a .ca.gov address may register. These lists let others in too, from the moment you add them.
      </p>
      {loadFailed && (
        <ErrorLine onRetry={() => setAttempt((n) => n + 1)}>
          The access lists could not be loaded. Please try again.
        </ErrorLine>
      )}
      {!loadFailed && !lists && <Spinner label="Loading the access lists" />}
      {lists && (
        <div className="admin-lists">
          {ACCESS_LISTS.map((list) => (
            <AccessListPanel key={list} list={list} values={lists[list]} onKept={kept} />
          ))}
        </div>
      )}
    </section>
  );
}

interface AccessListPanelProps {
  list: AccessList;
  values: string[];
  onKept: (lists: AccessLists) => void;
}

function AccessListPanel({ list, values, onKept }: AccessListPanelProps) {
  const label = ACCESS_LIST_LABELS[list];
  const titleId = `admin-list-${list}`;
  const [draft, setDraft] = useState('');
  const [status, setStatus] = useState('');
  const [removed, setRemoved] = useState<string | null>(null);
  const add = useAction();
  const remove = useAction();
  const undoButton = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);

  // The removed value's button is gone: focus goes to Undo, the next thing one may want.
  useEffect(() => {
    if (removed) undoButton.current?.focus();
  }, [removed]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (add.busy) return;
    setStatus('');
    setRemoved(null);
    const checked = checkAccessValue(list, draft);
    void add.run(
      async () => {
        if (!('value' in checked)) return;
        onKept(await changeAccessList(list, checked.value, true));
        setDraft('');
        setStatus(`Added ${checked.value} to ${label}.`);
      },
      refusalOr({
        logged: 'Could not add to an access list',
        shown: `Could not add to ${label}. Please try again.`,
      }),
      'problem' in checked ? checked.problem : null,
    );
    if ('problem' in checked) input.current?.focus();
  };

  const removeValue = (value: string) => {
    if (remove.busy) return;
    setStatus('');
    add.setError(null);
    void remove.run(
      async () => {
        onKept(await changeAccessList(list, value, false));
        setRemoved(value);
      },
      refusalOr({
        logged: 'Could not remove from an access list',
        shown: `Could not remove ${value} from ${label}. Please try again.`,
      }),
    );
  };

  const undo = (value: string) => {
    if (remove.busy) return;
    void remove.run(
      async () => {
        onKept(await changeAccessList(list, value, true));
        setRemoved(null);
        setStatus(`${value} is back in ${label}.`);
        input.current?.focus();
      },
      refusalOr({
        logged: 'Could not undo a removal',
        shown: `Could not put ${value} back. Please try again.`,
      }),
    );
  };

  const isDomain = list === 'domains';
  return (
    <section className="admin-list" aria-labelledby={titleId}>
      <h3 id={titleId} className="admin-list__title">
        {label} <span className="admin-list__count">({values.length})</span>
      </h3>
      {values.length === 0 ? (
        <p className="admin-note">None yet.</p>
      ) : (
        <ul className="admin-values" aria-labelledby={titleId}>
          {values.map((value) => (
            <li key={value} className="admin-value">
              <span className="admin-value__text">{value}</span>
              <button
                type="button"
                className="button button--quiet admin-value__remove"
                aria-label={`Remove ${value}`}
                aria-disabled={remove.busy || undefined}
                onClick={() => removeValue(value)}
              >
                <X size={16} aria-hidden="true" />
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div role="status" className="admin-status">
        {removed && (
          <p className="form-success admin-undo">
            Removed {removed} from {label}.{' '}
            <button
              ref={undoButton}
              type="button"
              className="button button--quiet"
              aria-disabled={remove.busy || undefined}
              onClick={() => undo(removed)}
            >
              Undo
            </button>
          </p>
        )}
        {status && <p className="form-success">{status}</p>}
      </div>
      {remove.error && (
        <p className="form-error" role="alert">
          {remove.error}
        </p>
      )}
      <form className="admin-add" onSubmit={submit} aria-busy={add.busy} noValidate>
        <label className="field admin-add__field">
          <span className="field__label">
            {isDomain ? `Add a domain to ${label}` : `Add an email to ${label}`}
          </span>
          <input
            ref={input}
            className="field__input"
            type={isDomain ? 'text' : 'email'}
            name={`add-${list}`}
            autoComplete="off"
            spellCheck={false}
            placeholder={isDomain ? 'agency.example.org' : 'name@agency.example.org'}
            aria-invalid={add.error ? true : undefined}
            aria-describedby={add.error ? `${titleId}-error` : undefined}
            value={draft}
            onChange={(event) => {
              setDraft(event.target.value);
              add.setError(null);
            }}
          />
        </label>
        <button type="submit" className="button button--secondary" aria-disabled={add.busy || undefined}>
          {add.busy ? <Spinner size="inline" /> : <Plus size={16} aria-hidden="true" />}
          Add
        </button>
      </form>
      {add.error && (
        <p id={`${titleId}-error`} className="form-error" role="alert">
          {add.error}
        </p>
      )}
    </section>
  );
}

function RolesSection({ onChange }: { onChange: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRoleChoice] = useState<AdminRole>('contributor');
  const [status, setStatus] = useState('');
  const action = useAction();

  const change = (grant: boolean) => {
    if (action.busy) return;
    setStatus('');
    const checked = checkAccessValue('emails', email);
    void action.run(
      async () => {
        if (!('value' in checked)) return;
        await setRole(checked.value, role, grant);
        onChange();
        const name = ADMIN_ROLE_LABELS[role];
        setStatus(
          grant
            ? `${checked.value} is now ${name}. They see it at their next sign-in.`
            : `${checked.value} is no longer ${name}. It is gone at their next sign-in.`,
        );
      },
      refusalOr({
        logged: 'Could not change a role',
        shown: 'The role could not be changed. Please try again.',
      }),
      'problem' in checked ? checked.problem : null,
    );
  };

  return (
    <section className="panel admin-section" aria-labelledby="admin-roles">
      <h2 id="admin-roles" className="admin-section__title">
        <UserCog size={20} aria-hidden="true" /> Roles
      </h2>
      <form
        className="admin-roles"
        onSubmit={(event) => {
          event.preventDefault();
          change(true);
        }}
        aria-busy={action.busy}
        noValidate
      >
        <FormSection legend="Grant or take away a role" gridClassName="form-grid--narrow">
          <TextField
            label="Account email"
            type="email"
            name="role-email"
            autoComplete="off"
            aria-invalid={action.error ? true : undefined}
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              action.setError(null);
            }}
          />
          <label className="field">
            <span className="field__label">Role</span>
            <select
              className="field__input field__input--select"
              name="role"
              value={role}
              onChange={(event) => setRoleChoice(event.target.value as AdminRole)}
            >
              {ADMIN_ROLES.map((one) => (
                <option key={one} value={one}>
                  {ADMIN_ROLE_LABELS[one]}
                </option>
              ))}
            </select>
          </label>
        </FormSection>
        <div className="form-actions admin-roles__actions">
          <button type="submit" className="button button--primary" aria-disabled={action.busy || undefined}>
            Grant
          </button>
          <button
            type="button"
            className="button button--secondary"
            aria-disabled={action.busy || undefined}
            onClick={() => change(false)}
          >
            Take away
          </button>
          {action.busy && <Spinner size="inline" />}
        </div>
        <div role="status" className="admin-status">
          {status && <p className="form-success">{status}</p>}
        </div>
        {action.error && (
          <p className="form-error" role="alert">
            {action.error}
          </p>
        )}
      </form>
    </section>
  );
}

const ACTION_WORDS: Record<string, string> = {
  add: 'added',
  remove: 'removed',
  grant: 'granted',
  revoke: 'took away',
};

/** 'added agency.org to Approved domains', 'granted Administrator to jo@x.gov', 'added the agency dof'. */
function describe(entry: AdminLogEntry): string {
  const verb = ACTION_WORDS[entry.action] ?? entry.action;
  if (entry.subject === 'agencies') return `${verb} the agency ${entry.value}`;
  if (entry.action === 'grant' || entry.action === 'revoke') {
    const role = ADMIN_ROLE_LABELS[entry.subject as AdminRole] ?? entry.subject;
    return entry.action === 'grant'
      ? `${verb} ${role} to ${entry.value}`
      : `${verb} ${role} from ${entry.value}`;
  }
  const list = ACCESS_LIST_LABELS[entry.subject as AccessList] ?? entry.subject;
  return entry.action === 'add' ? `${verb} ${entry.value} to ${list}` : `${verb} ${entry.value} from ${list}`;
}

function LogSection({ changes }: { changes: number }) {
  const [entries, setEntries] = useState<AdminLogEntry[] | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const more = useAction();
  const limit = ADMIN_LOG_PAGE.default;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a change made here or 'Try again' reloads it
  useEffect(() => {
    const controller = new AbortController();
    setLoadFailed(false);
    fetchAdminLog(null, limit, controller.signal).then(
      (page) => {
        setEntries(page);
        setHasMore(page.length === limit);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Could not load the admin log', error);
        setLoadFailed(true);
      },
    );
    return () => controller.abort();
  }, [changes, attempt, limit]);

  const loadMore = () => {
    const oldest = entries?.at(-1);
    if (!oldest || more.busy) return;
    void more.run(
      async () => {
        const page = await fetchAdminLog(oldest.id, limit);
        setEntries((shown) => [...(shown ?? []), ...page]);
        setHasMore(page.length === limit);
      },
      refusalOr({ logged: 'Could not load older log entries', shown: 'Older changes could not be loaded.' }),
    );
  };

  return (
    <section className="panel admin-section" aria-labelledby="admin-log">
      <h2 id="admin-log" className="admin-section__title">
        <History size={20} aria-hidden="true" /> Log
      </h2>
      {loadFailed && (
        <ErrorLine onRetry={() => setAttempt((n) => n + 1)}>
          The log could not be loaded. Please try again.
        </ErrorLine>
      )}
      {!loadFailed && !entries && <Spinner label="Loading the log" />}
      {entries && entries.length === 0 && <p className="admin-note">No changes yet.</p>}
      {entries && entries.length > 0 && (
        <ol className="admin-log" aria-labelledby="admin-log">
          {entries.map((entry) => (
            <li key={entry.id} className="admin-log__entry">
              <span className="admin-log__what">
                <strong>{entry.actor.email || 'Someone'}</strong> {describe(entry)}
              </span>
              <time className="admin-log__when" dateTime={entry.at}>
                {fullDate(new Date(entry.at))}
              </time>
            </li>
          ))}
        </ol>
      )}
      {hasMore && (
        <button
          type="button"
          className="button button--secondary"
          onClick={loadMore}
          aria-disabled={more.busy || undefined}
        >
          {more.busy && <Spinner size="inline" />}
          {more.busy ? 'Loading…' : 'Load more'}
        </button>
      )}
      {more.error && (
        <p className="form-error" role="alert">
          {more.error}
        </p>
      )}
    </section>
  );
}
