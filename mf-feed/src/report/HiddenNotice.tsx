// The notice on a hidden post or comment, which only its author and contributors still see (ADR 0041): the
// contributor's reason, or that several members' reports hid it until a contributor reviews it.
import { EyeOff } from 'lucide-react';
import type { Moderation } from '../api';
import './report.css';

export const AUTOMATIC_HIDING = 'Hidden after reports from several members, until a contributor reviews it.';

export function HiddenNotice({ moderation }: { moderation: Moderation | undefined }) {
  if (!moderation) return null;
  return (
    <p className="hidden-notice">
      <EyeOff size={16} aria-hidden="true" />
      <span>{moderation.automatic ? AUTOMATIC_HIDING : `Hidden by a contributor: ${moderation.reason}`}</span>
    </p>
  );
}
