// The small status pieces the organization screens share: the loading spinner and a calm error line with a
// way to try again.
import { RefreshCw } from 'lucide-react';

export function Spinner({ label, size = 'large' }: { label: string; size?: 'large' | 'small' }) {
  return <span className={`orgs-spinner orgs-spinner--${size}`} role="status" aria-label={label} />;
}

export function ErrorLine({ children, onRetry }: { children: string; onRetry?: () => void }) {
  return (
    <div className="orgs-error" role="alert">
      <p className="orgs-error__text">{children}</p>
      {onRetry && (
        <button type="button" className="orgs-button orgs-button--quiet" onClick={onRetry}>
          <RefreshCw size={16} aria-hidden="true" />
          Try again
        </button>
      )}
    </div>
  );
}
