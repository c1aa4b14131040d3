// Renders a micro-frontend's route component inside the shell. Loading shows a spinner; a remote that cannot
// be fetched or that throws while rendering shows an error panel with 'Try again', a remote released for a
// newer page (it needs a version of React, the router or the session store this page lacks) one with
// 'Reload', and the rest of the shell keeps working. An error ends a first screen the gateway drew (FirstScreenDrawn):
// the page shows it rather than the drawn markup.
import { FirstScreenDrawn, Spinner } from '@rotunda/ui';
import { RefreshCw, RotateCw, TriangleAlert } from 'lucide-react';
import { Component, type ComponentType, type ReactNode, useCallback, useEffect, useState } from 'react';
import { isIncompatibleRemote, loadRemoteComponent, type RemoteModuleId } from './federation';
import '@rotunda/ui/message-panel.css';

type Loader = () => Promise<ComponentType>;

type State =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; Component: ComponentType };

interface RemoteViewProps {
  /** The exposed module, e.g. 'mf_feed/PublicSquare'. */
  module: RemoteModuleId;
  /** What the page is called in messages, e.g. 'Public Square'. */
  label: string;
  /** Replaces the federation loader; tests use it. */
  load?: Loader;
  /** Replaces the page reload; tests use it. */
  reload?: () => void;
}

const reloadPage = () => window.location.reload();

export function RemoteView({ module, label, load, reload = reloadPage }: RemoteViewProps) {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<State>({ status: 'loading' });
  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  // `attempt` is a dependency on purpose: bumping it runs the load again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-triggers the load
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    (load ?? (() => loadRemoteComponent(module)))().then(
      (Loaded) => current && setState({ status: 'ready', Component: Loaded }),
      (error: unknown) => {
        console.error(`Could not load ${module}`, error);
        if (current) setState({ status: 'error', error });
      },
    );
    return () => {
      current = false;
    };
  }, [module, load, attempt]);

  if (state.status === 'loading') {
    return (
      <div className="remote-status">
        <Spinner label={`Loading ${label}`} />
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <>
        {isIncompatibleRemote(state.error) ? (
          <RemoteOutdated label={label} onReload={reload} />
        ) : (
          <RemoteError label={label} onRetry={retry} />
        )}
        <FirstScreenDrawn />
      </>
    );
  }
  return (
    <RenderBoundary key={attempt} label={label} onRetry={retry}>
      <state.Component />
    </RenderBoundary>
  );
}

function RemoteError({ label, onRetry }: { label: string; onRetry: () => void }) {
  return (
    <section className="message-panel" aria-labelledby="remote-error-title">
      <span className="message-panel__icon remote-error__icon" aria-hidden="true">
        <TriangleAlert size={24} />
      </span>
      <h1 id="remote-error-title" className="message-panel__title remote-error__title">
        {label} could not be loaded
      </h1>
      <p className="message-panel__text remote-error__text">
        This part of Rotunda is not responding right now. The rest of the site still works; please try again
        in a moment.
      </p>
      <button type="button" className="button button--primary" onClick={onRetry}>
        <RefreshCw size={16} aria-hidden="true" />
        Try again
      </button>
    </section>
  );
}

function RemoteOutdated({ label, onReload }: { label: string; onReload: () => void }) {
  return (
    <section className="message-panel" aria-labelledby="remote-error-title">
      <span className="message-panel__icon remote-error__icon" aria-hidden="true">
        <RotateCw size={24} />
      </span>
      <h1 id="remote-error-title" className="message-panel__title remote-error__title">
        {label} was updated
      </h1>
      <p className="message-panel__text remote-error__text">
        This part of Rotunda was updated and needs a newer page. Reload to continue; the rest of the site
        still works.
      </p>
      <button type="button" className="button button--primary" onClick={onReload}>
        <RefreshCw size={16} aria-hidden="true" />
        Reload
      </button>
    </section>
  );
}

interface BoundaryProps {
  label: string;
  onRetry: () => void;
  children: ReactNode;
}

/** Catches errors thrown while a loaded remote renders, so one broken screen cannot blank the shell. */
class RenderBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(`${this.props.label} failed while rendering`, error);
  }

  override render() {
    if (this.state.failed) {
      return (
        <>
          <RemoteError label={this.props.label} onRetry={this.props.onRetry} />
          <FirstScreenDrawn />
        </>
      );
    }
    return this.props.children;
  }
}
