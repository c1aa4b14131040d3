// The "Verified employer" badge on a directory card: the person's confirmed account email is at a domain of their
// current organization. Said in words (the check icon is decoration), with what it means on hover (the card is one
// link, whose name stays short); small enough to sit under the name on a 400 px wide card.
import { VERIFIED_EMPLOYER } from '@rotunda/rules';
import { BadgeCheck } from 'lucide-react';
import './verified-employer-badge.css';

export function VerifiedEmployerBadge() {
  return (
    <span className="dir-verified" title={VERIFIED_EMPLOYER.description}>
      <BadgeCheck size={14} aria-hidden="true" />
      <span>{VERIFIED_EMPLOYER.label}</span>
    </span>
  );
}
