// The frame every micro-frontend screen opens with: a page whose header holds an icon badge, the title and a
// one-line description. The styles come along with the components (page.css).
import type { ComponentType, ReactNode } from 'react';
import './page.css';

/** An icon component such as lucide-react's; the badge draws it at 22 px. */
export type IconComponent = ComponentType<{ size?: number }>;

/** The tinted square an icon sits in (page headers, intro panels); decorative, hidden from screen readers. */
export function IconBadge({ icon: Icon }: { icon: IconComponent }) {
  return (
    <span className="icon-badge" aria-hidden="true">
      <Icon size={22} />
    </span>
  );
}

export interface PageHeaderProps {
  icon: IconComponent;
  title: string;
  lede: string;
}

/** The heading block of a screen: icon badge, title (the page's h1) and a one-line description. */
export function PageHeader({ icon, title, lede }: PageHeaderProps) {
  return (
    <header className="page-header">
      <IconBadge icon={icon} />
      <div>
        <h1 className="page-title">{title}</h1>
        <p className="page-lede">{lede}</p>
      </div>
    </header>
  );
}

/** A screen: its header, then whatever the screen shows below it. */
export function Page({ children, ...header }: PageHeaderProps & { children?: ReactNode }) {
  return (
    <div className="page">
      <PageHeader {...header} />
      {children}
    </div>
  );
}
