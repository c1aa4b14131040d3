// The heading block every organizations screen opens with: icon, title and a one-line description.
import type { ReactNode } from 'react';
import './organizations.css';

interface PageHeaderProps {
  icon: ReactNode;
  title: string;
  lede: string;
}

export function PageHeader({ icon, title, lede }: PageHeaderProps) {
  return (
    <header className="orgs-header">
      <span className="orgs-header__icon" aria-hidden="true">
        {icon}
      </span>
      <div>
        <h1 className="orgs-header__title">{title}</h1>
        <p className="orgs-header__lede">{lede}</p>
      </div>
    </header>
  );
}
