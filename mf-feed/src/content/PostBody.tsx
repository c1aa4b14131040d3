// A post's body on screen: the whole of it (read modal) or the card's preview, always sanitized here with the
// shared configuration, whatever the server already did; the people the post mentions become links to their
// profiles (in the sanitized text nodes only), followed through the app's router.
import type { MouseEvent } from 'react';
import { useMemo } from 'react';
import { useHref, useNavigate } from 'react-router';
import { linkMentions, MENTION_PROFILE_ATTRIBUTE } from '../mentions/mention-links';
import type { Mentioned } from '../mentions/mentions';
import { previewOf, sanitizeBody } from './rich-text';
import './post-body.css';

interface PostBodyProps {
  html: string;
  /** The people the post mentions: their "@First Last" links to their profile. */
  mentions?: readonly Mentioned[];
  /** Show the card's preview (300 visible characters) rather than the whole body. */
  preview?: boolean;
  className?: string;
}

export function PostBody({ html, mentions = [], preview = false, className }: PostBodyProps) {
  const profiles = useHref('/profile');
  const navigate = useNavigate();
  const safe = useMemo(() => {
    const sanitized = preview ? previewOf(html).html : sanitizeBody(html);
    if (mentions.length === 0) return sanitized;
    // Already sanitized markup, parsed inert; linkMentions adds only elements of its own.
    const holder = document.createElement('template');
    holder.innerHTML = sanitized;
    linkMentions(holder.content, mentions, (id) => `${profiles}/${id}`);
    return holder.innerHTML;
  }, [html, mentions, preview, profiles]);

  // A mention is a link inside the app: a plain click goes through the router instead of reloading the page.
  const followMention = (event: MouseEvent<HTMLDivElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest?.(`a[${MENTION_PROFILE_ATTRIBUTE}]`);
    if (!link) return;
    event.preventDefault();
    navigate(`/profile/${link.getAttribute(MENTION_PROFILE_ATTRIBUTE)}`);
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the links inside take the keyboard themselves; this only routes their clicks
    <div
      className={className ? `post-body ${className}` : 'post-body'}
      onClick={followMention}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized just above with DOMPurify
      dangerouslySetInnerHTML={{ __html: safe }}
    />
  );
}
