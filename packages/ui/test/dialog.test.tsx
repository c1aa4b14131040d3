// The shared modal dialog: named and described by its title and description, opens on the data-autofocus
// element, reports the close button and Escape but not its own closing, and gives focus back to its opener.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { expect, it, vi } from 'vitest';
import { Dialog } from '../src/index';

function Harness({ onClose = () => {} }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <Dialog
        open={open}
        title="Edit organization"
        description="Fields marked * are required."
        onClose={() => {
          onClose();
          setOpen(false);
        }}
        className="dialog--wide"
      >
        <div className="dialog__body">
          <input aria-label="Name" data-autofocus />
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </>
  );
}

function openIt() {
  const opener = screen.getByRole('button', { name: 'Open' });
  opener.focus();
  fireEvent.click(opener);
  return { opener, dialog: screen.getByRole('dialog', { name: 'Edit organization' }) as HTMLDialogElement };
}

it('opens as a modal named and described by its header, on the data-autofocus field', () => {
  render(<Harness />);
  const { dialog } = openIt();
  expect(dialog.open).toBe(true);
  expect(dialog.className).toBe('dialog dialog--wide');
  const description = document.getElementById(dialog.getAttribute('aria-describedby') ?? '');
  expect(description?.textContent).toBe('Fields marked * are required.');
  expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' }));
});

it('reports the close button, then gives focus back to the opener', () => {
  const onClose = vi.fn();
  render(<Harness onClose={onClose} />);
  const { opener, dialog } = openIt();
  fireEvent.click(screen.getByRole('button', { name: 'Close' }));
  expect(onClose).toHaveBeenCalledOnce();
  expect(dialog.open).toBe(false);
  expect(document.activeElement).toBe(opener);
});

it('reports Escape (the browser closing it)', () => {
  const onClose = vi.fn();
  render(<Harness onClose={onClose} />);
  const { dialog } = openIt();
  act(() => dialog.close());
  expect(onClose).toHaveBeenCalledOnce();
  expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
});

it('does not report being closed by its open prop, and still gives focus back', () => {
  const onClose = vi.fn();
  render(<Harness onClose={onClose} />);
  const { opener, dialog } = openIt();
  fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(dialog.open).toBe(false);
  expect(onClose).not.toHaveBeenCalled();
  expect(document.activeElement).toBe(opener);
});
