// The calm error line of the directory screen, with a way out: try again, or reset the filters.
import type { ReactNode } from 'react';

export function ErrorLine({ children, action }: { children: string; action?: ReactNode }) {
  return (
    <div className="error-line" role="alert">
      <p className="error-line__text">{children}</p>
      {action}
    </div>
  );
}
