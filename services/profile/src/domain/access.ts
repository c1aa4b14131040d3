// Who may do what to a profile (docs/product.md#6-roles-and-permissions, ADR 0022): members only; a
// profile is edited by its owner, or by a contributor ('Concierge') while nobody owns it, never by a member
// whose claim on it still waits for a contributor; contributors alone decide claims, never their own; who
// claims a profile is shown to contributors only. The refusal texts the profile service answers with, and the
// lookups that answer NOT_FOUND with them.
import {
  ACCESS_MESSAGES,
  type Caller,
  DomainError,
  isContributor,
  notFound,
  permissionDenied,
} from '@rotunda/service-kit';
import type { Profile, ProfileOwnership, ProfileView } from './model.ts';
import type { ProfileRepository } from './ports.ts';
import { isVerifiedEmployer } from './verified-employer.ts';

export const MESSAGES = {
  ...ACCESS_MESSAGES,
  profileNotFound: 'Profile not found',
  editOwnOnly: 'You can only edit your own profile',
  filerIdConcierge: 'Only a Concierge can set the lobbyist filer id',
  alreadyHaveProfile: 'You already have a profile',
  oneClaim: 'Users can only claim one profile',
  alreadyClaimed: 'This profile has already been claimed',
  jobNotFound: 'Job not found',
  currentJobDelete: 'A current position cannot be deleted',
  onlyJobDelete: 'The only position on a profile cannot be deleted',
  organizationNotFound: 'Organization not found',
  divisionNotFound: 'Division not found',
  divisionElsewhere: 'The division belongs to another organization.',
  issueNotFound: 'Issue not found',
  duplicateIssue: 'You already cover this issue.',
  noImage: 'Please select an image to upload.',
  claimNotFound: 'Claim not found',
  claimDecided: 'This claim has already been decided',
  badDecision: 'decision must be confirm or reject',
  claimPendingEdit:
    'Your claim on this profile is waiting for a contributor to confirm it. You can change it once it is confirmed.',
  claimWaiting: 'Your claim on a profile is waiting for a contributor to confirm it.',
  ownClaim: 'A contributor cannot decide their own claim',
  changedWorkEmail: 'You changed this profile’s work email: another contributor decides claims on it.',
  pictureExpired: 'Your picture was uploaded too long ago. Please select it again.',
  tooManyDownloads: (seconds: number) =>
    `Too many downloads of the whole directory. Try again in ${seconds} seconds.`,
} as const;

export function canEdit(caller: Caller, profile: ProfileOwnership): boolean {
  if (profile.userId !== null) return profile.userId === caller.userId;
  return isContributor(caller) && profile.claimantId !== caller.userId;
}

/** The claimant of a pending claim is told why, not merely that the profile is not theirs. */
export function requireEditor(caller: Caller, profile: ProfileOwnership): void {
  if (canEdit(caller, profile)) return;
  throw permissionDenied(
    profile.claimantId === caller.userId ? MESSAGES.claimPendingEdit : MESSAGES.editOwnOnly,
  );
}

export const alreadyExists = (message: string) => new DomainError('already_exists', message);
export const failedPrecondition = (message: string) => new DomainError('failed_precondition', message);

/**
 * The refusal for a write that found the profile changed under it (gone, or claimed since the check): not
 * found, or no longer the caller's to edit.
 */
export function lostRace(profile: ProfileOwnership | null): DomainError {
  return profile ? permissionDenied(MESSAGES.editOwnOnly) : notFound(MESSAGES.profileNotFound);
}

/** An id a row may have: ids out of range are no row's, and need no query to say so. */
export const validId = (id: number) => Number.isSafeInteger(id) && id > 0;

export async function profileOrThrow(
  profiles: Pick<ProfileRepository, 'findProfile'>,
  profileId: number,
): Promise<Profile> {
  const profile = validId(profileId) ? await profiles.findProfile(profileId) : null;
  if (!profile) throw notFound(MESSAGES.profileNotFound);
  return profile;
}

export async function ownershipOrThrow(
  profiles: Pick<ProfileRepository, 'findOwnership'>,
  profileId: number,
): Promise<ProfileOwnership> {
  const owner = validId(profileId) ? await profiles.findOwnership(profileId) : null;
  if (!owner) throw notFound(MESSAGES.profileNotFound);
  return owner;
}

/** A profile as `caller` sees it: whether the pending claim is theirs; who claims it for contributors only. */
export function viewFor(caller: Caller, profile: Profile): ProfileView {
  const claim = profile.pendingClaim;
  return {
    ...profile,
    pendingClaim: claim && { ...claim, claimant: isContributor(caller) ? claim.claimant : null },
    claimedByCaller: claim !== null && claim.claimant.userId === caller.userId,
    verifiedEmployer: isVerifiedEmployer(
      profile.userId === null ? null : profile.ownerEmailDomain,
      profile.jobs.filter((job) => job.currentJob).map((job) => job.organization.emailDomains),
    ),
  };
}
