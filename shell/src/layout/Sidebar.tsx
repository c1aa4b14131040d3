// The desktop sidebar for signed-in users; it collapses to icons and remembers that choice.
import { PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { useState } from 'react';
import { NavItems } from './nav';

const COLLAPSED_KEY = 'rotunda.sidebarCollapsed';

export function Sidebar() {
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSED_KEY) === 'true');
  const toggle = () => {
    setCollapsed(!collapsed);
    localStorage.setItem(COLLAPSED_KEY, String(!collapsed));
  };
  const Icon = collapsed ? PanelLeftOpen : PanelLeftClose;
  return (
    <nav className={`sidebar${collapsed ? ' sidebar--collapsed' : ''}`} aria-label="Main">
      <NavItems compact={collapsed} />
      <button
        type="button"
        className="icon-button sidebar__toggle"
        onClick={toggle}
        aria-expanded={!collapsed}
        aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
        title={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
      >
        <Icon size={20} aria-hidden="true" />
      </button>
    </nav>
  );
}
