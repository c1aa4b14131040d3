// The calm error line the organization screens share, with a way to try again (the spinner is @rotunda/ui's).
import { RefreshCw } from 'lucide-react';

export function ErrorLine({ children, onRetry }: { children: string; onRetry?: () => void }) {
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
