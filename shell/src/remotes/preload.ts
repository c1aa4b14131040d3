// The start-up preload: index.ts calls it with the page's path before the shell's own code is fetched, so
// the current screen's micro-frontend (/remotes.json, its manifest, entry and files) loads alongside the
// shell instead of after it has rendered. A failed preload only costs the head start: the screen's own load
// still runs and shows its error panel if the remote is really down. A visitor's screen with an early data
// request (early.ts) starts that too.
import { earlyRequestFor, startEarlyRequest } from './early';
import { preloadRemoteModule, type RemoteModuleId } from './federation';
import { screenAt } from './screens';

export function preloadScreenAt(
  pathname: string,
  preload: (id: RemoteModuleId) => Promise<void> = preloadRemoteModule,
  storage: Storage = localStorage,
): RemoteModuleId | null {
  const screen = screenAt(pathname);
  if (!screen) return null;
  const early = earlyRequestFor(screen, storage);
  if (early) startEarlyRequest(early);
  preload(screen.module).catch((error: unknown) =>
    console.warn(`Could not preload ${screen.module}; it loads when shown`, error),
  );
  return screen.module;
}
