// The navigation items shared by the desktop sidebar and the mobile slide-out.
import { useUser } from '@rotunda/session';
import { Building2, CircleUser, MessageSquare, Newspaper, Users } from 'lucide-react';
import { NavLink } from 'react-router';
import { FEEDBACK_EMAIL } from '../ui';

interface NavItemsProps {
  /** Hides the labels visually (collapsed desktop sidebar); they stay as accessible names. */
  compact?: boolean;
  onNavigate?: () => void;
}

export function NavItems({ compact = false, onNavigate }: NavItemsProps) {
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
  ];
  return (
    <ul className="nav-items">
      {items.map(({ to, label, icon: Icon }) => (
        <li key={label}>
          <NavLink to={to} className="nav-item" onClick={onNavigate} title={compact ? label : undefined}>
            <Icon size={20} aria-hidden="true" />
            <span className={compact ? 'visually-hidden' : undefined}>{label}</span>
          </NavLink>
        </li>
      ))}
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
