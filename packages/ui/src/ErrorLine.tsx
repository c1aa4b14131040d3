// The calm error line of a screen or panel that could not load (role="alert"), with a way to try again when
// trying again can help. Its look is .error-line of @rotunda/ui/states.css, which the screen imports.
import { RefreshCw } from 'lucide-react';

export interface ErrorLineProps {
  children: string;
  /** Offers 'Try again', which calls it. */
  onRetry?: () => void;
}

export function ErrorLine({ children, onRetry }: ErrorLineProps) {
  return (
    <div className="error-line" role="alert">
      <p className="error-line__text">{children}</p>
      {onRetry && (
        <button type="button" className="button button--quiet" onClick={onRetry}>
          <RefreshCw size={16} aria-hidden="true" />
          Try again
        </button>
      )}
    </div>
  );
}
