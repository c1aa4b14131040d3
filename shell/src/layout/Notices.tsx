// The guard's access alert and the toast: both dismissible, both hide themselves after a few seconds.
import { ShieldAlert, Sparkles, X } from 'lucide-react';
import { useEffect } from 'react';
import { ACCESS_RESTRICTED_MESSAGE, useUi } from '../ui';

export const NOTICE_TIMEOUT_MS = 6000;

export function AccessAlert() {
  const alertId = useUi((s) => s.accessAlertId);
  const dismiss = useUi((s) => s.dismissAccessAlert);

  useEffect(() => {
    if (alertId === null) return;
    const timer = setTimeout(dismiss, NOTICE_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [alertId, dismiss]);

  if (alertId === null) return null;
  return (
    <div className="notice notice--alert" role="alert">
      <ShieldAlert size={20} aria-hidden="true" className="notice__icon" />
      <p className="notice__text">{ACCESS_RESTRICTED_MESSAGE}</p>
      <button type="button" className="icon-button icon-button--small" onClick={dismiss} aria-label="Dismiss">
        <X size={16} aria-hidden="true" />
      </button>
    </div>
  );
}

export function ToastView() {
  const toast = useUi((s) => s.toast);
  const dismiss = useUi((s) => s.dismissToast);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(dismiss, NOTICE_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [toast, dismiss]);

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
