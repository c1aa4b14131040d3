// A post's body on screen: the whole of it (read modal) or the card's preview, always sanitized here with the
// shared configuration, whatever the server already did.
import { useMemo } from 'react';
import { previewOf, sanitizeBody } from './rich-text';
import './post-body.css';

interface PostBodyProps {
  html: string;
  /** Show the card's preview (300 visible characters) rather than the whole body. */
  preview?: boolean;
  className?: string;
}

export function PostBody({ html, preview = false, className }: PostBodyProps) {
  const safe = useMemo(() => (preview ? previewOf(html).html : sanitizeBody(html)), [html, preview]);
  return (
    <div
      className={className ? `post-body ${className}` : 'post-body'}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized just above with DOMPurify
      dangerouslySetInnerHTML={{ __html: safe }}
    />
  );
}
