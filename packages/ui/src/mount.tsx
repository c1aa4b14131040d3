// Mounts an app in the page's #root inside StrictMode and a BrowserRouter: the shell's entry and each
// micro-frontend's stand-alone development page (rsbuild dev), which renders its screens without the shell.
import { type ComponentType, StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';

/** One screen, or a route table from path to screen: { '/profile/:id': ProfilePage, '*': ProfileCreate }. */
export type Screens = ComponentType | Record<string, ComponentType>;

/** Renders `screens` into #root; answers the React root, or null when the page has no #root. */
export function mountApp(screens: Screens): Root | null {
  const container = document.getElementById('root');
  if (!container) return null;
  const root = createRoot(container);
  root.render(
    <StrictMode>
      <BrowserRouter>{renderScreens(screens)}</BrowserRouter>
    </StrictMode>,
  );
  return root;
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
