// The navigation items shared by the desktop sidebar and the mobile slide-out; contributors also get
// Moderation, with how many reported posts and comments wait for them, and administrators Administration
// (/admin). Members get Settings, and in the phone menu Notifications (wider screens have the top bar's
// bell).
import { useUser } from '@rotunda/session';
import {
  Building2,
  CircleUser,
  KeyRound,
  MessageSquare,
  Newspaper,
  Settings,
  ShieldCheck,
  Users,
} from 'lucide-react';
import { NavLink } from 'react-router';
import { useModeration } from '../moderation';
import { FEEDBACK_EMAIL } from '../ui';
import { NotificationsItem } from './Bell';

interface NavItemsProps {
  /** Hides the labels visually (collapsed desktop sidebar); they stay as accessible names. */
  compact?: boolean;
  onNavigate?: () => void;
  /** Lists Notifications too (the phone menu, where the top bar has no bell). */
  withNotifications?: boolean;
}

export function NavItems({ compact = false, onNavigate, withNotifications = false }: NavItemsProps) {
  const user = useUser();
  const items = [
    { to: '/public-square', label: 'Public Square', icon: Newspaper },
    { to: '/directory', label: 'Directory', icon: Users },
    { to: '/organizations', label: 'Organizations', icon: Building2 },
    {
      to: user?.profile_id ? `/profile/${user.profile_id}` : '/profile/create',
      label: 'Profile',
      icon: CircleUser,
    },
    ...(user ? [{ to: '/settings', label: 'Settings', icon: Settings }] : []),
  ];
  return (
    <ul className="nav-items">
      {user && withNotifications && (
        <li>
          <NotificationsItem onNavigate={onNavigate} />
        </li>
      )}
      {items.map(({ to, label, icon: Icon }) => (
        <li key={label}>
          <NavLink to={to} className="nav-item" onClick={onNavigate} title={compact ? label : undefined}>
            <Icon size={20} aria-hidden="true" />
            <span className={compact ? 'visually-hidden' : undefined}>{label}</span>
          </NavLink>
        </li>
      ))}
      {user?.contributor && (
        <li>
          <ModerationItem compact={compact} onNavigate={onNavigate} />
        </li>
      )}
      {user?.admin && (
        <li>
          <NavLink
            to="/admin"
            className="nav-item"
            onClick={onNavigate}
            title={compact ? 'Administration' : undefined}
          >
            <KeyRound size={20} aria-hidden="true" />
            <span className={compact ? 'visually-hidden' : undefined}>Administration</span>
          </NavLink>
        </li>
      )}
      <li className="nav-items__separated">
        <a
          className="nav-item"
          href={`mailto:${FEEDBACK_EMAIL}?subject=${encodeURIComponent('Rotunda feedback')}`}
          title={compact ? 'Feedback' : undefined}
        >
          <MessageSquare size={20} aria-hidden="true" />
          <span className={compact ? 'visually-hidden' : undefined}>Feedback</span>
        </a>
      </li>
    </ul>
  );
}

/** 'Moderation' with its count as a badge; the count is part of the link's name ('Moderation, 3 open items'). */
function ModerationItem({ compact = false, onNavigate }: NavItemsProps) {
  const open = useModeration((s) => s.openItems);
  // One name in one string: browsers put spaces between a label's parts where a hidden span begins.
  const name = open ? `Moderation, ${open} open ${open === 1 ? 'item' : 'items'}` : undefined;
  return (
    <NavLink
      to="/moderation"
      className="nav-item"
      onClick={onNavigate}
      aria-label={name}
      title={compact ? (name ?? 'Moderation') : undefined}
    >
      <ShieldCheck size={20} aria-hidden="true" />
      <span className={compact ? 'visually-hidden' : undefined}>Moderation</span>
      {/* The visible text reads 'Moderation 3', which the name must contain (WCAG 2.5.3). */}
      {open ? ' ' : null}
      {open ? (
        <span className="nav-item__count" aria-hidden="true">
          {open}
        </span>
      ) : null}
    </NavLink>
  );
}
