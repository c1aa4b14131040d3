// The slide-out sidebar under 550 px, a modal dialog so focus stays inside and Escape closes it.
import { X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useUi } from '../ui';
import { NavItems } from './nav';

export function MobileNav() {
  const open = useUi((s) => s.mobileNavOpen);
  const setOpen = useUi((s) => s.setMobileNavOpen);
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    // Keyboard users close it with Escape (native to <dialog>) or the close button; the click handler only
    // adds closing by a click on the backdrop.
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape already closes the dialog
    <dialog
      ref={ref}
      id="mobile-nav"
      className="mobile-nav"
      aria-label="Menu"
      onClose={() => setOpen(false)}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) setOpen(false);
      }}
    >
      <nav className="mobile-nav__panel" aria-label="Main">
        <div className="mobile-nav__header">
          <span className="brand">Rotunda</span>
          <button
            type="button"
            className="icon-button"
            onClick={() => setOpen(false)}
            aria-label="Close menu"
          >
            <X size={20} aria-hidden="true" />
          </button>
        </div>
        <NavItems onNavigate={() => setOpen(false)} withNotifications />
      </nav>
    </dialog>
  );
}
