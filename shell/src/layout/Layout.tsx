// The frame around every route: top bar, sidebars, the main landmark, notices and the access dialogs.
import { clearSession, useIsAuthenticated } from '@rotunda/session';
import { Outlet, useNavigate } from 'react-router';
import { LoginDialog } from '../auth/LoginDialog';
import { RegisterDialog } from '../auth/RegisterDialog';
import { MobileNav } from './MobileNav';
import { AccessAlert, ToastView } from './Notices';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';

export function Layout() {
  const isAuthenticated = useIsAuthenticated();
  const navigate = useNavigate();

  const logout = () => {
    clearSession();
    navigate('/');
  };

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar onLogout={logout} />
      <div className="app__body">
        {isAuthenticated && <Sidebar />}
        <main id="main" className="app__main" tabIndex={-1}>
          <AccessAlert />
          <Outlet />
        </main>
      </div>
      <MobileNav />
      <ToastView />
      <LoginDialog />
      <RegisterDialog />
    </div>
  );
}
