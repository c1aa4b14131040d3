// The member's settings, /settings: which notifications are emailed (a digest Never/Daily/Weekly and the kinds
// mailed at once, PUT /api/notifications/preferences) and their data (docs/product.md#your-data): 'Download
// my data' saves the export as the file the server names; 'Delete my account' says plainly what goes, asks
// for the password again, and on success signs out here and lands on the home page saying so.
import {
  EMAIL_DIGEST_LABELS,
  EMAIL_DIGESTS,
  EMAIL_NOW_KINDS,
  EMAIL_NOW_LABELS,
  type NotificationPreferences,
} from '@rotunda/rules';
import { clearSession } from '@rotunda/session';
import { Dialog, ErrorLine, Page, refusalOr, Spinner, saveBlob, useAction } from '@rotunda/ui';
import { Download, Mail, Settings as SettingsIcon, Trash2 } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { TextField } from '../auth/fields';
import { deleteAccount, exportMyData, fetchPreferences, savePreferences } from '../notifications/api';
import { useUi } from '../ui';
import { useHeadingFocus } from './useHeadingFocus';
import '@rotunda/ui/forms.css';
import '@rotunda/ui/states.css';
import '../styles/notifications.css';

export const ACCOUNT_DELETED = 'Your account has been deleted. Thank you for being part of Rotunda.';
const EXPORT_FILE_NAME = 'rotunda-my-data.json';

export function Settings() {
  const frame = useRef<HTMLDivElement>(null);
  useHeadingFocus(frame);
  return (
    <div ref={frame}>
      <Page
        icon={SettingsIcon}
        title="Settings"
        lede="Choose what Rotunda emails you, and take or delete your data."
      >
        <EmailSection />
        <DataSection />
      </Page>
    </div>
  );
}

function EmailSection() {
  const [saved, setSaved] = useState<NotificationPreferences | null>(null);
  const [choices, setChoices] = useState<NotificationPreferences | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [status, setStatus] = useState('');
  const save = useAction();

  // `attempt` is a dependency on purpose: 'Try again' bumps it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-triggers the load
  useEffect(() => {
    const controller = new AbortController();
    setLoadFailed(false);
    fetchPreferences(controller.signal).then(
      (preferences) => {
        setSaved(preferences);
        setChoices(preferences);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Could not load the notification preferences', error);
        setLoadFailed(true);
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const change = (next: NotificationPreferences) => {
    setChoices(next);
    setStatus('');
    save.setError(null);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!choices) return;
    setStatus('');
    void save.run(
      async () => {
        const kept = await savePreferences(choices);
        setSaved(kept);
        setChoices(kept);
        setStatus('Your email choices are saved.');
      },
      refusalOr({
        logged: 'Could not save the notification preferences',
        shown: 'Your email choices could not be saved. Please try again.',
      }),
    );
  };

  const unchanged = JSON.stringify(saved) === JSON.stringify(choices);

  return (
    <section className="panel settings-section" aria-labelledby="settings-email">
      <h2 id="settings-email" className="settings-section__title">
        <Mail size={20} aria-hidden="true" /> Email
      </h2>
      {loadFailed && (
        <ErrorLine onRetry={() => setAttempt((n) => n + 1)}>
          Your email choices could not be loaded. Please try again.
        </ErrorLine>
      )}
      {!loadFailed && !choices && <Spinner label="Loading your email choices" />}
      {choices && (
        <form className="settings-form" onSubmit={submit} aria-busy={save.busy} noValidate>
          <fieldset className="form-fieldset">
            <legend className="form-fieldset__legend">Digest of what I missed</legend>
            <div className="settings-choices">
              {EMAIL_DIGESTS.map((digest) => (
                <label key={digest} className="settings-choice">
                  <input
                    type="radio"
                    name="email_digest"
                    value={digest}
                    checked={choices.email_digest === digest}
                    onChange={() => change({ ...choices, email_digest: digest })}
                  />
                  {EMAIL_DIGEST_LABELS[digest]}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset className="form-fieldset">
            <legend className="form-fieldset__legend">Email me at once when</legend>
            <div className="settings-choices settings-choices--column">
              {EMAIL_NOW_KINDS.map((kind) => (
                <label key={kind} className="settings-choice">
                  <input
                    type="checkbox"
                    name={`email_now_${kind}`}
                    checked={choices.email_now[kind]}
                    onChange={(event) =>
                      change({
                        ...choices,
                        email_now: { ...choices.email_now, [kind]: event.target.checked },
                      })
                    }
                  />
                  {EMAIL_NOW_LABELS[kind]}
                </label>
              ))}
            </div>
          </fieldset>
          <p className="settings-note">
            Emails about your account itself (confirmation, password reset) are always sent.
          </p>
          <div className="settings-actions">
            <button type="submit" className="button button--primary" disabled={save.busy || unchanged}>
              {save.busy && <Spinner size="inline" />}
              {save.busy ? 'Saving…' : 'Save email choices'}
            </button>
            <div className="settings-status" role="status">
              {status && <p className="form-success">{status}</p>}
            </div>
          </div>
          {save.error && (
            <p className="form-error" role="alert">
              {save.error}
            </p>
          )}
        </form>
      )}
    </section>
  );
}

function DataSection() {
  const download = useAction();
  const [downloaded, setDownloaded] = useState('');
  const [deleting, setDeleting] = useState(false);

  const exportData = () => {
    setDownloaded('');
    void download.run(
      async () => {
        const { blob, fileName } = await exportMyData();
        saveBlob(blob, fileName ?? EXPORT_FILE_NAME);
        setDownloaded('Your data is downloaded.');
      },
      refusalOr({
        logged: 'Could not export the member’s data',
        shown: 'Your data could not be downloaded. Please try again.',
      }),
    );
  };

  return (
    <section className="panel settings-section" aria-labelledby="settings-data">
      <h2 id="settings-data" className="settings-section__title">
        <Download size={20} aria-hidden="true" /> Your data
      </h2>
      <p className="settings-note">
        Download everything Rotunda holds about you (your account, profile, claims, reports, posts, comments,
        likes, notifications and choices) as a JSON file, or delete your account.
      </p>
      <div className="settings-actions">
        <button
          type="button"
          className="button button--secondary"
          onClick={exportData}
          disabled={download.busy}
        >
          {download.busy ? <Spinner size="inline" /> : <Download size={16} aria-hidden="true" />}
          {download.busy ? 'Preparing your data…' : 'Download my data'}
        </button>
        <button type="button" className="button settings-danger" onClick={() => setDeleting(true)}>
          <Trash2 size={16} aria-hidden="true" />
          Delete my account
        </button>
      </div>
      <div className="settings-status" role="status">
        {downloaded && <p className="form-success">{downloaded}</p>}
      </div>
      {download.error && (
        <p className="form-error" role="alert">
          {download.error}
        </p>
      )}
      <DeleteAccountDialog open={deleting} onClose={() => setDeleting(false)} />
    </section>
  );
}

function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const remove = useAction();
  const navigate = useNavigate();
  const showNotice = useUi((s) => s.showNotice);

  const close = () => {
    if (remove.busy) return;
    setPassword('');
    remove.setError(null);
    onClose();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void remove.run(
      async () => {
        await deleteAccount(password);
        // The account and its sessions are gone on the server: only this browser's copy is left to forget.
        clearSession();
        showNotice('success', ACCOUNT_DELETED, '/');
        navigate('/', { replace: true });
      },
      refusalOr({
        logged: 'Could not delete the account',
        shown: 'Your account could not be deleted. Please try again.',
      }),
      password === '' ? 'Enter your password to delete your account.' : null,
    );
  };

  return (
    <Dialog open={open} title="Delete my account" onClose={close}>
      <form className="dialog-form" onSubmit={submit} aria-busy={remove.busy} noValidate>
        <div className="dialog__body settings-dialog">
          <p>This cannot be undone. Deleting your account removes:</p>
          <ul className="settings-list">
            <li>your account and every signed-in session;</li>
            <li>your claims and reports, your likes, posts and comments, and your notifications;</li>
            <li>a profile you created;</li>
            <li>
              from a profile you claimed, your personal email, mobile phone and birthday; the profile itself
              returns to unclaimed.
            </li>
          </ul>
          <TextField
            label="Your password"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            data-autofocus
            aria-invalid={remove.error ? true : undefined}
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              remove.setError(null);
            }}
          />
          {remove.error && (
            <p className="form-error" role="alert">
              {remove.error}
            </p>
          )}
        </div>
        <div className="dialog-form__footer">
          <div className="form-actions">
            <button type="button" className="button button--secondary" onClick={close} disabled={remove.busy}>
              Cancel
            </button>
            <button type="submit" className="button settings-danger" disabled={remove.busy}>
              {remove.busy && <Spinner size="inline" />}
              {remove.busy ? 'Deleting…' : 'Delete my account'}
            </button>
          </div>
        </div>
      </form>
    </Dialog>
  );
}
