// The profile page's left column (docs/product.md#2-screens-and-routes, #3-entities-and-their-fields):
// picture or placeholder, name (the preferred name in place of the first, with the legal name under it),
// pronouns, current title and organization (a link to its page), phones, work
// email (mailto), personal email, social links, and the lobbyist filer id only when there is one, linking to
// the lobbyist's Cal-Access page, and "Save contact" (the work contact as a vCard). The edit pencil shows
// to those who may edit; Claim to a member without a profile looking at one nobody owns.
import { formatPhone } from '@rotunda/rules';
import { ContactItem, NewTabLink, SocialLinks, telHref } from '@rotunda/ui';
import { FileText, Mail, Pencil, Phone, Smartphone, UserCheck } from 'lucide-react';
import { Link } from 'react-router';
import type { Profile } from '../api';
import { Avatar } from '../common/Avatar';
import { currentJobOf, fullName, lobbyistUrl, shownName } from '../profile-rules';
import { SaveContact } from './SaveContact';
import { VerifiedEmployerBadge } from './VerifiedEmployerBadge';

interface ProfileCardProps {
  profile: Profile;
  canEdit: boolean;
  onEdit: () => void;
  canClaim: boolean;
  onClaim: () => void;
}

export function ProfileCard({ profile, canEdit, onEdit, canClaim, onClaim }: ProfileCardProps) {
  const job = currentJobOf(profile);
  const name = shownName(profile);
  const legalName = fullName(profile);
  const officePhone = formatPhone(profile.other_phone?.trim() ?? '');
  const mobilePhone = formatPhone(profile.mobile_phone?.trim() ?? '');
  const filerId = profile.lobby_filer_id?.trim();

  return (
    <section className="panel prof-card" aria-labelledby="prof-card-name">
      <div className="prof-card__top">
        <Avatar person={profile} picture={profile.profile_picture} size="large" />
        {canEdit && (
          <button
            type="button"
            className="icon-button prof-card__edit"
            aria-label="Edit profile"
            aria-haspopup="dialog"
            onClick={onEdit}
          >
            <Pencil size={18} aria-hidden="true" />
          </button>
        )}
      </div>
      <h1 id="prof-card-name" className="prof-card__name">
        {name}
      </h1>
      {legalName !== name && <p className="prof-card__legal-name">Legal name: {legalName}</p>}
      {profile.pronouns && <p className="prof-card__pronouns">{profile.pronouns}</p>}
      {profile.verified_employer && <VerifiedEmployerBadge />}
      {job && (
        <p className="prof-card__job">
          <span className="prof-card__title">{job.title}</span>
          <Link to={`/organization/${job.organization_id}`}>{job.Organization.organization_name}</Link>
          {job.Division && <span className="prof-card__division">{job.Division.division_name}</span>}
        </p>
      )}
      <dl className="prof-contact">
        {officePhone && (
          <ContactItem className="prof-contact__item" icon={<Phone size={16} />} term="Office phone">
            <a href={telHref(officePhone)}>{officePhone}</a>
          </ContactItem>
        )}
        {mobilePhone && (
          <ContactItem className="prof-contact__item" icon={<Smartphone size={16} />} term="Mobile phone">
            <a href={telHref(mobilePhone)}>{mobilePhone}</a>
          </ContactItem>
        )}
        {profile.work_email && (
          <ContactItem className="prof-contact__item" icon={<Mail size={16} />} term="Work email">
            <a href={`mailto:${profile.work_email}`}>{profile.work_email}</a>
          </ContactItem>
        )}
        {profile.personal_email && (
          <ContactItem className="prof-contact__item" icon={<Mail size={16} />} term="Personal email">
            <a href={`mailto:${profile.personal_email}`}>{profile.personal_email}</a>
          </ContactItem>
        )}
        {filerId && (
          <ContactItem className="prof-contact__item" icon={<FileText size={16} />} term="Lobbyist filer ID">
            <NewTabLink href={lobbyistUrl(filerId)}>{filerId}</NewTabLink>
          </ContactItem>
        )}
      </dl>
      <SaveContact profileId={profile.profile_id} />
      <SocialLinks record={profile} className="prof-socials" />
      {canClaim && (
        <div className="prof-card__claim">
          <p className="prof-hint">Nobody has claimed this profile yet. If it is yours, claim it.</p>
          <button
            type="button"
            className="button button--primary button--block"
            aria-haspopup="dialog"
            onClick={onClaim}
          >
            <UserCheck size={18} aria-hidden="true" />
            Claim this profile
          </button>
        </div>
      )}
    </section>
  );
}
