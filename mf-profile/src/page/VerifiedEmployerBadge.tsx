// The "Verified employer" badge under the name on the profile page: the owner's confirmed account email is at a
// domain of their current organization. Said in words (the check icon is decoration), with what it means on hover
// and to assistive technology.
import { VERIFIED_EMPLOYER } from '@rotunda/rules';
import { BadgeCheck } from 'lucide-react';
import './verified-employer-badge.css';

export function VerifiedEmployerBadge() {
  return (
    <p className="prof-verified" title={VERIFIED_EMPLOYER.description}>
      <BadgeCheck size={16} aria-hidden="true" />
      <span>{VERIFIED_EMPLOYER.label}</span>
      <span className="visually-hidden">{`: ${VERIFIED_EMPLOYER.description}`}</span>
    </p>
  );
}
