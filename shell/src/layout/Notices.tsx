// The page notice (the guard's access alert, 'Password has been reset', …) and the toast: both
// dismissible, both hide themselves after a few seconds. The suspension notice stays for as long as the
// member's suspension runs.
import { suspendedMessage } from '@rotunda/rules';
import { Ban, CircleCheck, ShieldAlert, Sparkles, X } from 'lucide-react';
import { useEffect } from 'react';
import { useModeration } from '../moderation';
import { useUi } from '../ui';

export const NOTICE_TIMEOUT_MS = 6000;

/** Dismisses `shown` NOTICE_TIMEOUT_MS after it appears; a new one (a new object) starts the time again. */
function useDismissLater(shown: object | null, dismiss: () => void) {
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(dismiss, NOTICE_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [shown, dismiss]);
}

export function PageNoticeView() {
  const notice = useUi((s) => s.notice);
  const dismiss = useUi((s) => s.dismissNotice);
  useDismissLater(notice, dismiss);

  if (!notice) return null;
  const Icon = notice.tone === 'success' ? CircleCheck : ShieldAlert;
  return (
    <div className={`notice notice--${notice.tone}`} role="alert">
      <Icon size={20} aria-hidden="true" className="notice__icon" />
      <p className="notice__text">{notice.text}</p>
      <button type="button" className="icon-button icon-button--small" onClick={dismiss} aria-label="Dismiss">
        <X size={16} aria-hidden="true" />
      </button>
    </div>
  );
}

export function ToastView() {
  const toast = useUi((s) => s.toast);
  const dismiss = useUi((s) => s.dismissToast);
  useDismissLater(toast, dismiss);

  return (
    <div className="toast-region" role="status" aria-live="polite" aria-label="Notifications">
      {toast && (
        <div className="toast">
          <Sparkles size={20} aria-hidden="true" className="toast__icon" />
          <div>
            <p className="toast__title">{toast.title}</p>
            <p className="toast__body">{toast.body}</p>
          </div>
          <button
            type="button"
            className="icon-button icon-button--small"
            onClick={dismiss}
            aria-label="Dismiss"
          >
            <X size={16} aria-hidden="true" />
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * 'Your account is suspended until <date>: <reason>' above every page of a suspended member: why their posts,
 * comments and edits are refused. A status region, there before the notice, so it is announced once.
 */
export function SuspensionNoticeView() {
  const suspension = useModeration((s) => s.suspension);
  return (
    <div role="status">
      {suspension && (
        <div className="notice notice--suspended">
          <Ban size={20} aria-hidden="true" className="notice__icon" />
          <p className="notice__text">{suspendedMessage(new Date(suspension.until), suspension.reason)}</p>
        </div>
      )}
    </div>
  );
}
