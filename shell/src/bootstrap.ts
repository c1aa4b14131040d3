// Mounts the shell in the page, after the session keeper has resumed a stored session (or ended one that
// ran out while the page was closed, so no signed-in screen flashes up for an expired session). A first screen the
// gateway drew stays in sight until the screen's remote has drawn its own (@rotunda/ui/mount).
import { mountApp } from '@rotunda/ui/mount';
import { AppRoutes } from './AppRoutes';
import { sessionKeeper } from './session';

sessionKeeper.start();
mountApp(AppRoutes);
