// The frame around every route: top bar, sidebars, the main landmark, the footer (with the accessibility
// statement's link, on every screen), notices and the access dialogs (loaded when first opened). The tab's
// title follows the screen's h1. Its class names are the ones the gateway draws around a first screen (FRAME_CLASSES).
// Whenever the member stops being signed in (logout, the session ending, a sign-out in another tab) it
// sends them to '/'; a micro-frontend asking for the login dialog (LOGIN_REQUEST_EVENT) gets it. Moderation's
// part (a suspended member's notice, the queue's count) is asked again on every navigation; the unread
// notification count is kept live for as long as a member is signed in.
import { FRAME_CLASSES } from '@rotunda/rules';
import { LOGIN_REQUEST_EVENT, useIsAuthenticated } from '@rotunda/session';
import { useEffect, useRef } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { AccessDialogs } from '../auth/AccessDialogs';
import { useModerationWatch } from '../moderation';
import { useUnreadWatch } from '../notifications/unread';
import { sessionKeeper } from '../session';
import { useUi } from '../ui';
import { UnreadAnnouncer } from './Bell';
import { MobileNav } from './MobileNav';
import { PageNoticeView, SuspensionNoticeView, ToastView } from './Notices';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { useScreenTitle } from './useScreenTitle';

export function Layout() {
  const isAuthenticated = useIsAuthenticated();
  const navigate = useNavigate();
  const wasAuthenticated = useRef(isAuthenticated);
  const main = useRef<HTMLElement>(null);
  useScreenTitle(main);
  useModerationWatch(useLocation().pathname);
  useUnreadWatch();

  useEffect(() => {
    if (wasAuthenticated.current && !isAuthenticated) navigate('/', { replace: true });
    wasAuthenticated.current = isAuthenticated;
  }, [isAuthenticated, navigate]);

  useEffect(() => {
    const openLogin = () => useUi.getState().openDialog('login');
    window.addEventListener(LOGIN_REQUEST_EVENT, openLogin);
    return () => window.removeEventListener(LOGIN_REQUEST_EVENT, openLogin);
  }, []);

  return (
    <div className={FRAME_CLASSES.app}>
      <a className={FRAME_CLASSES.skipLink} href="#main">
        Skip to content
      </a>
      <TopBar onLogout={() => void sessionKeeper.logout()} />
      <div className={FRAME_CLASSES.body}>
        {isAuthenticated && <Sidebar />}
        <main id="main" className={FRAME_CLASSES.main} tabIndex={-1} ref={main}>
          <SuspensionNoticeView />
          <PageNoticeView />
          <Outlet />
        </main>
      </div>
      <footer className={FRAME_CLASSES.footer}>
        <p>&copy; 2024 Rotunda. All rights reserved.</p>
        <nav aria-label="About Rotunda">
          <Link to="/accessibility">Accessibility statement</Link>
        </nav>
      </footer>
      <MobileNav />
      <ToastView />
      <UnreadAnnouncer />
      <AccessDialogs />
    </div>
  );
}
