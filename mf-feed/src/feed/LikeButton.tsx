// The heart of a post: filled when the member likes it, with the count beside it. Visitors see it but their
// clicks do nothing (docs/product.md#5-validation-rules); the title tells them why.
import { Heart } from 'lucide-react';

interface LikeButtonProps {
  liked: boolean;
  count: number;
  /** A visitor: the button is shown as unavailable and ignores clicks. */
  disabled: boolean;
  onToggle: () => void;
}

export function LikeButton({ liked, count, disabled, onToggle }: LikeButtonProps) {
  return (
    <button
      type="button"
      className={`post-action like-button${liked ? ' like-button--liked' : ''}`}
      aria-pressed={liked}
      aria-disabled={disabled || undefined}
      aria-label={`Like, ${count} ${count === 1 ? 'like' : 'likes'}`}
      title={disabled ? 'Log in to like posts' : undefined}
      onClick={() => {
        if (!disabled) onToggle();
      }}
    >
      <Heart size={18} aria-hidden="true" fill={liked ? 'currentColor' : 'none'} />
      <span aria-hidden="true">{count}</span>
    </button>
  );
}
