// Mounts an app in the page's #root inside StrictMode and a BrowserRouter: the shell's entry and each
// micro-frontend's stand-alone development page (rsbuild dev), which renders its screens without the shell.
// When the gateway drew the first screen in #root (ADR 0053), that markup stays in sight while the app renders
// beside it, out of sight and out of reach (hidden, inert), and gives way in one step once the screen's remote
// says it has drawn its own (FIRST_SCREEN_DRAWN_EVENT): no spinner in between, and the first paint stays the
// largest one.
import { FIRST_SCREEN_ATTRIBUTE, FIRST_SCREEN_DRAWN_EVENT } from '@rotunda/rules';
import { type ComponentType, StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';

/** One screen, or a route table from path to screen: { '/profile/:id': ProfilePage, '*': ProfileCreate }. */
export type Screens = ComponentType | Record<string, ComponentType>;

/** The longest the drawn markup waits for the remote: a remote that never says so is shown anyway. */
export const TAKE_OVER_WITHIN_MS = 10_000;

/** Renders `screens` into #root; answers the React root, or null when the page has no #root. */
export function mountApp(screens: Screens): Root | null {
  const container = document.getElementById('root');
  if (!container) return null;
  const root = createRoot(takeOverContainer(container));
  root.render(
    <StrictMode>
      <BrowserRouter>{renderScreens(screens)}</BrowserRouter>
    </StrictMode>,
  );
  return root;
}

/**
 * Where the app renders: #root itself, or, when #root holds a drawn first screen, a box laid over it (same width,
 * so the app measures what it will show) that is revealed, and the drawn markup removed, when the remote has drawn.
 */
export function takeOverContainer(root: HTMLElement, withinMs = TAKE_OVER_WITHIN_MS): HTMLElement {
  const drawn = root.querySelector(`:scope > [${FIRST_SCREEN_ATTRIBUTE}]`);
  if (!drawn) return root;
  const app = document.createElement('div');
  app.setAttribute('style', 'position:absolute;top:0;left:0;right:0;visibility:hidden');
  app.inert = true;
  root.append(app);
  const reveal = () => {
    window.removeEventListener(FIRST_SCREEN_DRAWN_EVENT, reveal);
    clearTimeout(timer);
    // A keyboard's place in the drawn markup is kept: it moves to the app's same control (or its main landmark).
    const focused = drawn.contains(document.activeElement) ? document.activeElement : null;
    const place = focused?.getBoundingClientRect();
    drawn.remove();
    app.removeAttribute('style');
    app.inert = false;
    // A dialog opened while out of reach could not take the focus (Dialog's data-autofocus): it takes it now.
    const dialogFocus = app.querySelector<HTMLElement>('dialog[open] [data-autofocus]');
    if (dialogFocus) dialogFocus.focus();
    else if (focused && place) counterpartOf(focused, place, app)?.focus();
  };
  const timer = setTimeout(reveal, withinMs);
  window.addEventListener(FIRST_SCREEN_DRAWN_EVENT, reveal);
  return app;
}

/** What a keyboard can be on. */
const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

/**
 * The app's control standing where `element` stood in the drawn markup: the one now at its place on the screen (the
 * app draws the same boxes; a drawn link may be the app's button), else one of the same kind, address, name and
 * text, else the app's main landmark.
 */
function counterpartOf(element: Element, place: DOMRect, app: HTMLElement): HTMLElement | null {
  const atPlace = document
    .elementFromPoint?.(place.x + place.width / 2, place.y + place.height / 2)
    ?.closest<HTMLElement>(FOCUSABLE);
  if (atPlace && app.contains(atPlace)) return atPlace;
  const same = (candidate: Element) =>
    ['href', 'aria-label'].every((name) => candidate.getAttribute(name) === element.getAttribute(name)) &&
    candidate.textContent?.trim() === element.textContent?.trim();
  const match = Array.from(app.querySelectorAll<HTMLElement>(element.localName)).find(same);
  return match ?? app.querySelector<HTMLElement>('main');
}

function renderScreens(screens: Screens) {
  if (typeof screens === 'function') {
    const Screen = screens;
    return <Screen />;
  }
  return (
    <Routes>
      {Object.entries(screens).map(([path, Screen]) => (
        <Route key={path} path={path} element={<Screen />} />
      ))}
    </Routes>
  );
}
