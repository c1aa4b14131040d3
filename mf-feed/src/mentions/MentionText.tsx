// A comment's plain text with each "@First Last" of its `mentions` as a link to that person's profile, built as
// React nodes (the text is never parsed as markup).
import { Link } from 'react-router';
import { type Mentioned, mentionSegments } from './mentions';

interface MentionTextProps {
  text: string;
  mentions: readonly Mentioned[] | undefined;
}

export function MentionText({ text, mentions = [] }: MentionTextProps) {
  return (
    <>
      {mentionSegments(text, mentions).map((segment, index) =>
        typeof segment === 'string' ? (
          segment
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the segments of one text, in a fixed order
          <Link key={index} className="mention" to={`/profile/${segment.person.profile_id}`}>
            {segment.text}
          </Link>
        ),
      )}
    </>
  );
}
