// Entry of the shell; the async import lets Module Federation set up the shared singletons (React, the
// router, the session store) before any of them is evaluated. The current screen's micro-frontend starts
// loading first, in parallel with the shell's own code.
import { preloadScreenAt } from './remotes/preload';

preloadScreenAt(window.location.pathname);
import('./bootstrap');
