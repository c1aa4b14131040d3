// Entry of the shell; the async import lets Module Federation set up the shared singletons (React, the
// router, the session store) before any of them is evaluated. The current screen's micro-frontend starts
// loading first, in parallel with the shell's own code. The frame's styles are the entry's, linked in the page's
// head, so the frame the gateway draws around a first screen (ADR 0053) is styled at the first paint.
import '@rotunda/ui/controls.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/notices.css';
import './styles/landing.css';
import './styles/access.css';
import { preloadScreenAt } from './remotes/preload';

preloadScreenAt(window.location.pathname);
import('./bootstrap');
