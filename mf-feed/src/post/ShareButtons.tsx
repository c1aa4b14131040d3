// Passing a post on: 'Copy link' puts the post's own address on the clipboard, and says so in a live region
// (screen readers hear it, everyone sees it for a few seconds); on a phone that has the system's share sheet
// (navigator.share), 'Share' opens it with the post's title and address.
import { Link2, Share2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { Post } from '../api';
import { postLink } from './usePostAddress';
import './share.css';

/** How long the 'Link copied' line stays. */
export const COPIED_SHOWN_MS = 4000;

/** A phone's share sheet: offered where the browser has one and the pointer is a finger. */
const hasShareSheet = () =>
  typeof navigator.share === 'function' && window.matchMedia?.('(pointer: coarse)').matches === true;

interface ShareButtonsProps {
  post: Pick<Post, 'post_id' | 'post_title'>;
  /** The id of the post's title, which names what the buttons act on. */
  describedBy?: string;
}

export function ShareButtons({ post, describedBy }: ShareButtonsProps) {
  const [said, setSaid] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [shareSheet] = useState(hasShareSheet);
  useEffect(() => () => clearTimeout(timer.current), []);

  const say = (text: string) => {
    clearTimeout(timer.current);
    setSaid(text);
    timer.current = setTimeout(() => setSaid(''), COPIED_SHOWN_MS);
  };

  const copy = async () => {
    const link = postLink(post.post_id);
    try {
      await navigator.clipboard.writeText(link);
      say('Link copied');
    } catch (error) {
      console.error('The link could not be copied', error);
      say(`Copy this link: ${link}`);
    }
  };

  const share = async () => {
    try {
      await navigator.share({ title: post.post_title, url: postLink(post.post_id) });
    } catch (error) {
      // Closing the sheet is no failure.
      if (!(error instanceof DOMException && error.name === 'AbortError'))
        console.error('The post could not be shared', error);
    }
  };

  return (
    <span className="share">
      <button
        type="button"
        className="button button--quiet share__button"
        aria-describedby={describedBy}
        onClick={copy}
      >
        <Link2 size={16} aria-hidden="true" />
        Copy link
      </button>
      {shareSheet && (
        <button
          type="button"
          className="button button--quiet share__button"
          aria-describedby={describedBy}
          onClick={share}
        >
          <Share2 size={16} aria-hidden="true" />
          Share
        </button>
      )}
      <span className="share__said" role="status">
        {said}
      </span>
    </span>
  );
}
