// The login, register and password-reset-request dialogs, each loaded the first time it is opened: the
// register and reset request dialogs carry the captcha (the ALTCHA widget and its Svelte runtime), which a
// visitor's first screen does not need. A dialog stays mounted once loaded, so it keeps its state as before
// and opens at once the next time. While its code arrives a spinner announces it; the dialog then opens with
// the focus in its first field and returns it to whatever opened it (Dialog of @rotunda/ui). Code that cannot
// be fetched closes the request with a page notice, and the next opening fetches it again.
import { Spinner } from '@rotunda/ui';
import { Component, type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react';
import { type DialogName, useUi } from '../ui';

type Loader = () => Promise<{ default: ComponentType }>;

const DIALOGS: Record<DialogName, { title: string; load: Loader }> = {
  login: {
    title: 'Log in',
    load: () =>
      import(/* webpackChunkName: "dialog-login" */ './LoginDialog').then((m) => ({
        default: m.LoginDialog,
      })),
  },
  register: {
    title: 'Register',
    load: () =>
      import(/* webpackChunkName: "dialog-register" */ './RegisterDialog').then((m) => ({
        default: m.RegisterDialog,
      })),
  },
  'reset-request': {
    title: 'Reset your password',
    load: () =>
      import(/* webpackChunkName: "dialog-reset-request" */ './ResetRequestDialog').then((m) => ({
        default: m.ResetRequestDialog,
      })),
  },
};

const NAMES = Object.keys(DIALOGS) as DialogName[];

export const DIALOG_LOAD_FAILED = 'This form could not be opened. Check your connection and try again.';

type Loaded = Partial<Record<DialogName, ComponentType>>;

export function AccessDialogs() {
  const dialog = useUi((s) => s.dialog);
  // React.lazy keeps a failed load for good, so a failed dialog is dropped and a new lazy made next time.
  const [loaded, setLoaded] = useState<Loaded>({});
  // Adjusting state while rendering (not in an effect): the dialog starts loading in this same render.
  if (dialog && !loaded[dialog]) setLoaded({ ...loaded, [dialog]: lazy(DIALOGS[dialog].load) });

  const failed = (name: DialogName) => {
    setLoaded(({ [name]: _dropped, ...rest }) => rest);
    const ui = useUi.getState();
    if (ui.dialog === name) ui.closeDialog();
    ui.showNotice('error', DIALOG_LOAD_FAILED);
  };

  return NAMES.map((name) => {
    const Dialog = loaded[name];
    if (!Dialog) return null;
    return (
      <LoadBoundary key={name} onError={() => failed(name)}>
        <Suspense
          fallback={
            <div className="dialog-loading">
              <Spinner label={`Opening ${DIALOGS[name].title}`} />
            </div>
          }
        >
          <Dialog />
        </Suspense>
      </LoadBoundary>
    );
  });
}

class LoadBoundary extends Component<{ onError: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('A dialog could not be loaded', error);
    this.props.onError();
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
