// The calm error line of a screen or panel that could not load (role="alert"), with a way to try again. Each app
// styles it under its own block class (`className`, with `${className}__text` for the text).
import { RefreshCw } from 'lucide-react';

export interface ErrorLineProps {
  /** The block class, e.g. 'feed-error'. */
  className: string;
  children: string;
  /** Offers 'Try again', which calls it. */
  onRetry?: () => void;
}

export function ErrorLine({ className, children, onRetry }: ErrorLineProps) {
  return (
    <div className={className} role="alert">
      <p className={`${className}__text`}>{children}</p>
      {onRetry && <RetryButton onClick={onRetry} />}
    </div>
  );
}

/** The quiet 'Try again' button. */
function RetryButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="button button--quiet" onClick={onClick}>
      <RefreshCw size={16} aria-hidden="true" />
      Try again
    </button>
  );
}
