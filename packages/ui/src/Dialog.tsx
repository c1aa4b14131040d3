// A modal dialog on the native <dialog>: showModal() keeps focus inside and makes the page behind inert,
// Escape and the close button close it, it opens on the element marked data-autofocus, and focus goes back
// to whatever opened it. Stateless apart from the DOM, so each app may bundle its own copy. The styles come
// along (dialog.css, and controls.css for the close button).
import { X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import './controls.css';
import './dialog.css';

export interface DialogProps {
  open: boolean;
  /** The heading, which also names the dialog. */
  title: string;
  /** A line under the title, which also describes the dialog. */
  description?: string;
  /** The close button or Escape; not called when `open` turning false closed it. */
  onClose: () => void;
  /** What the dialog holds: give content without a layout of its own the `dialog__body` class. */
  children: ReactNode;
  /** Extra classes on the <dialog>, e.g. `dialog--wide`. */
  className?: string;
}

export function Dialog({ open, title, description, onClose, children, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const opener = useRef<HTMLElement | null>(null);
  // The native 'close' event also fires when the open prop closed it (or another dialog replaced it); only
  // a close the user asked for (Escape) is reported.
  const openRef = useRef(open);
  openRef.current = open;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      // Start in the first field rather than on the close button.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={(event) => {
        // React hands a dialog opened inside this one its 'close' too: only this dialog's own counts.
        if (event.target !== event.currentTarget) return;
        if (openRef.current) onClose();
        // While another modal dialog is open the page behind is inert, so this focus goes nowhere.
        opener.current?.focus();
        opener.current = null;
      }}
    >
      {open && (
        <div className="dialog__panel">
          <div className="dialog__header">
            <div>
              <h2 id={titleId} className="dialog__title">
                {title}
              </h2>
              {description && (
                <p id={descriptionId} className="dialog__description">
                  {description}
                </p>
              )}
            </div>
            <button type="button" className="icon-button" onClick={onClose} aria-label="Close">
              <X size={20} aria-hidden="true" />
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}
