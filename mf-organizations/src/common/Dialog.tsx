// A modal dialog on the native <dialog>, like the shell's: showModal() keeps focus inside and makes the page
// behind inert, Escape and the close button close it, it opens on the element marked data-autofocus, and
// focus goes back to whatever opened it. (The shell's Modal is not shared; see the report on packages/ui.)
import { X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef } from 'react';

interface DialogProps {
  open: boolean;
  title: string;
  description?: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}

export function Dialog({ open, title, description, onClose, children, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const opener = useRef<HTMLElement | null>(null);
  // The native 'close' event also fires when the open prop closed it; only a close the member asked for
  // (Escape) is reported.
  const openRef = useRef(open);
  openRef.current = open;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={`orgs-dialog${className ? ` ${className}` : ''}`}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={() => {
        if (openRef.current) onClose();
        opener.current?.focus();
        opener.current = null;
      }}
    >
      {open && (
        <div className="orgs-dialog__panel">
          <div className="orgs-dialog__header">
            <div>
              <h2 id={titleId} className="orgs-dialog__title">
                {title}
              </h2>
              {description && (
                <p id={descriptionId} className="orgs-dialog__description">
                  {description}
                </p>
              )}
            </div>
            <button type="button" className="orgs-icon-button" onClick={onClose} aria-label="Close">
              <X size={20} aria-hidden="true" />
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}
