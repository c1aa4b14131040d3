// The heading block every profile screen opens with: icon, title and a one-line description.
import type { ReactNode } from 'react';
import './profile.css';

interface PageHeaderProps {
  icon: ReactNode;
  title: string;
  lede: string;
}

export function PageHeader({ icon, title, lede }: PageHeaderProps) {
  return (
    <header className="profile-header">
      <span className="profile-header__icon" aria-hidden="true">
        {icon}
      </span>
      <div>
        <h1 className="profile-header__title">{title}</h1>
        <p className="profile-header__lede">{lede}</p>
      </div>
    </header>
  );
}
