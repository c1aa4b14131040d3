// Shell-wide interface state: the access alert, the toast, the open dialog and the mobile menu.
import { create } from 'zustand';

export interface Toast {
  id: number;
  title: string;
  body: string;
}

export type DialogName = 'login' | 'register';

interface UiState {
  /** Changes on every guard hit, so a repeated hit restarts the alert's timer. */
  accessAlertId: number | null;
  toast: Toast | null;
  dialog: DialogName | null;
  mobileNavOpen: boolean;
  showAccessAlert: () => void;
  dismissAccessAlert: () => void;
  showToast: (title: string, body: string) => void;
  dismissToast: () => void;
  openDialog: (dialog: DialogName) => void;
  closeDialog: () => void;
  setMobileNavOpen: (open: boolean) => void;
}

let nextId = 1;

export const useUi = create<UiState>()((set) => ({
  accessAlertId: null,
  toast: null,
  dialog: null,
  mobileNavOpen: false,
  showAccessAlert: () => set({ accessAlertId: nextId++ }),
  dismissAccessAlert: () => set({ accessAlertId: null }),
  showToast: (title, body) => set({ toast: { id: nextId++, title, body } }),
  dismissToast: () => set({ toast: null }),
  openDialog: (dialog) => set({ dialog, mobileNavOpen: false }),
  closeDialog: () => set({ dialog: null }),
  setMobileNavOpen: (mobileNavOpen) => set({ mobileNavOpen }),
}));

export const ACCESS_RESTRICTED_MESSAGE = 'Access Restricted. Please login.';

/** Where the sidebar's Feedback link writes to. */
export const FEEDBACK_EMAIL = 'feedback@rotunda.app';
