// The page notice (the guard's access alert, 'Password has been reset', …) and the toast (WCAG 2.2.1 Timing
// Adjustable, ADR 0056). A page notice has no timer, as GOV.UK's and USWDS's banners have none: it stays
// until it is dismissed or the member moves on to another screen (a redirect made as it is shown carries it
// to the screen it was shown for). A toast hides itself after a few seconds, but not while the pointer rests
// on it or the focus is in it, and Escape or its Dismiss button closes it. The suspension notice stays for as
// long as the member's suspension runs.
import { suspendedMessage } from '@rotunda/rules';
import { Ban, CircleCheck, ShieldAlert, Sparkles, X } from 'lucide-react';
import { type FocusEvent, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useModeration } from '../moderation';
import { type Toast, useUi } from '../ui';

/** How long a toast shows once nothing holds it: from its arrival, or from when the pointer or focus left it. */
export const TOAST_TIMEOUT_MS = 6000;

export function PageNoticeView() {
  const notice = useUi((s) => s.notice);
  const dismiss = useUi((s) => s.dismissNotice);
  const { pathname } = useLocation();
  // A notice belongs to its screen (its `path`, where a redirect made as it is shown leads, or else where it is
  // first drawn): once it has been there, a move to another path dismisses it.
  const home = useRef<{ id: number; path: string; arrived: boolean } | null>(null);
  useEffect(() => {
    if (!notice) return;
    if (home.current?.id !== notice.id)
      home.current = { id: notice.id, path: notice.path ?? pathname, arrived: false };
    if (pathname === home.current.path) home.current.arrived = true;
    else if (home.current.arrived) dismiss();
  }, [notice, pathname, dismiss]);

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
  return (
    <div className="toast-region" role="status" aria-live="polite" aria-label="Notifications">
      {toast && <ToastCard key={toast.id} toast={toast} />}
    </div>
  );
}

/** One toast; keyed by its id, so a new toast starts with nothing holding it. */
function ToastCard({ toast }: { toast: Toast }) {
  const dismiss = useUi((s) => s.dismissToast);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const held = hovered || focused;
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(dismiss, TOAST_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [held, dismiss]);

  const focusLeft = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
  };
  return (
    // Pointer and focus hold it and Escape closes it; its Dismiss button is the keyboard's way in.
    // biome-ignore lint/a11y/noStaticElementInteractions: the handlers watch what happens inside, they add no control
    <div
      className="toast"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={focusLeft}
      onKeyDown={(event) => {
        if (event.key === 'Escape') dismiss();
      }}
    >
      <Sparkles size={20} aria-hidden="true" className="toast__icon" />
      <div>
        <p className="toast__title">{toast.title}</p>
        <p className="toast__body">{toast.body}</p>
      </div>
      <button type="button" className="icon-button icon-button--small" onClick={dismiss} aria-label="Dismiss">
        <X size={16} aria-hidden="true" />
      </button>
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
