// The calm error line the public square's panels share, with a way to try again (the spinner is @rotunda/ui's).
import { RefreshCw } from 'lucide-react';

export function ErrorLine({ children, onRetry }: { children: string; onRetry?: () => void }) {
  return (
    <div className="feed-error" role="alert">
      <p className="feed-error__text">{children}</p>
      {onRetry && (
        <button type="button" className="button button--quiet" onClick={onRetry}>
          <RefreshCw size={16} aria-hidden="true" />
          Try again
        </button>
      )}
    </div>
  );
}
