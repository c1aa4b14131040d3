// A modal dialog on the native <dialog>: focus stays inside, Escape and the close button close it, and it
// opens on the field marked data-autofocus.
import { X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef } from 'react';

interface ModalProps {
  open: boolean;
  title: string;
  description?: string;
  onClose: () => void;
  children: ReactNode;
}

export function Modal({ open, title, description, onClose, children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // The native dialog also fires 'close' when it is closed because another dialog replaced it (the open
  // prop went false); only a close the user asked for (Escape) is reported.
  const openRef = useRef(open);
  openRef.current = open;
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // Start in the first field rather than on the close button.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={() => {
        if (openRef.current) onClose();
      }}
    >
      {open && (
        <div className="modal__panel">
          <div className="modal__header">
            <h2 id={titleId} className="modal__title">
              {title}
            </h2>
            <button type="button" className="icon-button" onClick={onClose} aria-label="Close">
              <X size={20} aria-hidden="true" />
            </button>
          </div>
          {description && (
            <p id={descriptionId} className="modal__description">
              {description}
            </p>
          )}
          {children}
        </div>
      )}
    </dialog>
  );
}
