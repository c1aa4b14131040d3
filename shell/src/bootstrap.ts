// Mounts the shell in the page, after the session keeper has resumed a stored session (or ended one that
// ran out while the page was closed, so no signed-in screen flashes up for an expired session).
import { mountApp } from '@rotunda/ui/mount';
import { AppRoutes } from './AppRoutes';
import { sessionKeeper } from './session';
import '@rotunda/ui/controls.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/notices.css';
import './styles/landing.css';
import './styles/access.css';

sessionKeeper.start();
mountApp(AppRoutes);
