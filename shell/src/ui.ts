// Shell-wide interface state: the page notice (the guard's access alert and other page-level alerts), the
// toast, the open dialog and the mobile menu.
import { create } from 'zustand';

export interface Toast {
  id: number;
  title: string;
  body: string;
}

export interface PageNotice {
  /** Changes on every notice, so a repeated one is a new one. */
  id: number;
  tone: 'error' | 'success';
  text: string;
  /** The path of the screen it is for, when it is shown just before a redirect there (otherwise where it shows). */
  path?: string;
}

export type DialogName = 'login' | 'register' | 'reset-request';

interface UiState {
  notice: PageNotice | null;
  toast: Toast | null;
  dialog: DialogName | null;
  mobileNavOpen: boolean;
  showAccessAlert: () => void;
  showNotice: (tone: PageNotice['tone'], text: string, path?: string) => void;
  dismissNotice: () => void;
  showToast: (title: string, body: string) => void;
  dismissToast: () => void;
  openDialog: (dialog: DialogName) => void;
  closeDialog: () => void;
  setMobileNavOpen: (open: boolean) => void;
}

let nextId = 1;

export const ACCESS_RESTRICTED_MESSAGE = 'Access Restricted. Please login.';

export const useUi = create<UiState>()((set) => ({
  notice: null,
  toast: null,
  dialog: null,
  mobileNavOpen: false,
  showAccessAlert: () =>
    set({ notice: { id: nextId++, tone: 'error', text: ACCESS_RESTRICTED_MESSAGE, path: '/' } }),
  showNotice: (tone, text, path) => set({ notice: { id: nextId++, tone, text, ...(path ? { path } : {}) } }),
  dismissNotice: () => set({ notice: null }),
  showToast: (title, body) => set({ toast: { id: nextId++, title, body } }),
  dismissToast: () => set({ toast: null }),
  openDialog: (dialog) => set({ dialog, mobileNavOpen: false }),
  closeDialog: () => set({ dialog: null }),
  setMobileNavOpen: (mobileNavOpen) => set({ mobileNavOpen }),
}));

/** Where the sidebar's Feedback link writes to. */
export const FEEDBACK_EMAIL = 'feedback@rotunda.app';
