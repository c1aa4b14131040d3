// The top bar: home or public-square icon, the brand, and the account icons
// (docs/product.md#2-screens-and-routes, Shell); a member's notifications bell among them on wide screens.
// The gateway draws a visitor's with the same class names (FRAME_CLASSES) around a first screen.
import { FRAME_CLASSES } from '@rotunda/rules';
import { useIsContributor, useUser } from '@rotunda/session';
import { CircleUser, House, LogIn, LogOut, Menu, Newspaper, Sparkles } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useUnread } from '../notifications/unread';
import { useUi } from '../ui';
import { badgeText, TopBarBell } from './Bell';

interface TopBarProps {
  onLogout: () => void;
}

export function TopBar({ onLogout }: TopBarProps) {
  const user = useUser();
  const isContributor = useIsContributor();
  const onLanding = useLocation().pathname === '/';
  const openDialog = useUi((s) => s.openDialog);
  const showToast = useUi((s) => s.showToast);
  const mobileNavOpen = useUi((s) => s.mobileNavOpen);
  const setMobileNavOpen = useUi((s) => s.setMobileNavOpen);
  // Phones have no bell in the bar: the menu button shows that something is unread inside.
  const unread = useUnread((s) => s.count);

  return (
    <header className={FRAME_CLASSES.topbar}>
      <div className={FRAME_CLASSES.topbarStart}>
        <button
          type="button"
          className={`${FRAME_CLASSES.iconButton} ${FRAME_CLASSES.topbarMenu}`}
          aria-label={unread ? `Open menu, ${badgeText(unread)} unread notifications` : 'Open menu'}
          aria-haspopup="dialog"
          aria-expanded={mobileNavOpen}
          aria-controls="mobile-nav"
          onClick={() => setMobileNavOpen(true)}
        >
          <Menu size={22} aria-hidden="true" />
          {unread ? <span className="topbar__menu-dot" aria-hidden="true" /> : null}
        </button>
        {onLanding ? (
          <Link to="/" className={FRAME_CLASSES.iconButton} aria-label="Home" title="Home">
            <House size={20} aria-hidden="true" />
          </Link>
        ) : (
          <Link
            to="/public-square"
            className={FRAME_CLASSES.iconButton}
            aria-label="Public Square"
            title="Public Square"
          >
            <Newspaper size={20} aria-hidden="true" />
          </Link>
        )}
        <Link to="/public-square" className={FRAME_CLASSES.brand}>
          Rotunda
        </Link>
      </div>
      <div className={FRAME_CLASSES.topbarEnd}>
        {isContributor && (
          <button
            type="button"
            className="icon-button icon-button--gold"
            aria-label="Concierge Account"
            title="Concierge Account"
            onClick={() =>
              showToast(
                'Concierge Account',
                'As a Concierge contributor you may edit profiles that no one has claimed yet, and organization details.',
              )
            }
          >
            <Sparkles size={20} aria-hidden="true" />
          </button>
        )}
        {user && <TopBarBell />}
        <Link
          to={user?.profile_id ? `/profile/${user.profile_id}` : '/profile/create'}
          className={FRAME_CLASSES.iconButton}
          aria-label="Profile"
          title="Profile"
        >
          <CircleUser size={20} aria-hidden="true" />
        </Link>
        {user ? (
          <button
            type="button"
            className={FRAME_CLASSES.iconButton}
            aria-label="Log out"
            title="Log out"
            onClick={onLogout}
          >
            <LogOut size={20} aria-hidden="true" />
          </button>
        ) : (
          <button
            type="button"
            className={FRAME_CLASSES.iconButton}
            aria-label="Log in"
            title="Log in"
            onClick={() => openDialog('login')}
          >
            <LogIn size={20} aria-hidden="true" />
          </button>
        )}
      </div>
    </header>
  );
}
