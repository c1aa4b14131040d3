// The profile service's rules for claims (docs/product.md#4-states-and-transitions, ADR 0022, ADR 0037):
// finding the unclaimed profiles that match a member, and claiming one, confirmed at once when the member's
// confirmed account email is the profile's work email and that email has not changed in the last 30 days and
// the member is no contributor, else pending until a contributor confirms or rejects it (never their own
// claim, nor one on a profile whose work email they changed last), the profile unowned meanwhile. Every
// change of owner is in the profile's history. One profile or claim per member. Knows nothing of gRPC, HTTP
// or Prisma: it works through its ports.
import { claimConfirmsAtOnce } from '@rotunda/rules';
import {
  type Caller,
  invalidArgument,
  isContributor,
  notFound,
  permissionDenied,
  requireContributor,
  requireMember,
} from '@rotunda/service-kit';
import { alreadyExists, failedPrecondition, MESSAGES, profileOrThrow, validId, viewFor } from './access.ts';
import type { PeopleDirectory } from './directory.ts';
import { claimantName as claimantShown } from './history.ts';
import type {
  ClaimDecision,
  ClaimStatus,
  DecidedClaim,
  ListedProfile,
  PendingClaim,
  ProfileView,
} from './model.ts';
import type { ProfileRepository } from './ports.ts';

/** The longest claimant name kept (names come from the account, which limits them already). */
const CLAIMANT_NAME_LENGTH = 100;

export interface ClaimServiceDependencies {
  profiles: Pick<
    ProfileRepository,
    | 'findProfile'
    | 'findUnclaimedMatches'
    | 'ownedOrClaimedBy'
    | 'claimProfile'
    | 'listPendingClaims'
    | 'findClaimant'
    | 'decideClaim'
  >;
  /** The people directory's index: a confirmed claim may change a card's badge. */
  directory: Pick<PeopleDirectory, 'profilesChanged'>;
}

export interface ClaimantNames {
  firstName: string;
  lastName: string;
}

export interface MatchInput {
  firstName: string;
  lastName: string;
  email: string;
}

/**
 * What deciding a claim does: a confirmed claim leaves the member the owner; a rejected one gives the profile up,
 * unclaimed again, for another member to claim or a contributor to edit.
 */
const CLAIM_DECISIONS: Record<ClaimDecision, { status: ClaimStatus; giveOwnership: boolean }> = {
  confirm: { status: 'confirmed', giveOwnership: true },
  reject: { status: 'rejected', giveOwnership: false },
};

const claimantName = (name: string) => name.trim().replace(/\s+/g, ' ').slice(0, CLAIMANT_NAME_LENGTH);

export function createClaimService({ profiles, directory }: ClaimServiceDependencies) {
  return {
    /**
     * Create-profile step 0: unclaimed profiles that match all three, any case; never a claimed one, nor one a
     * claim waits on.
     */
    async findUnclaimedMatches(caller: Caller | undefined, input: MatchInput): Promise<ListedProfile[]> {
      requireMember(caller);
      const firstName = input.firstName.trim();
      const lastName = input.lastName.trim();
      const email = input.email.trim().toLowerCase();
      if (!firstName || !lastName || !email) return [];
      return profiles.findUnclaimedMatches(firstName, lastName, email);
    },

    /**
     * A member claims a profile nobody owns and no other claim waits on
     * (docs/product.md#4-states-and-transitions). When the member's confirmed account email (the access
     * token's) is the profile's work email, the claim is confirmed and the profile theirs at once; otherwise
     * it waits for a contributor, and until then the profile stays as it is: not the claimant's to change or
     * post as. One profile or claim per member.
     */
    async claimProfile(
      caller: Caller | undefined,
      profileId: number,
      names: ClaimantNames,
    ): Promise<ProfileView> {
      const member = requireMember(caller);
      const target = await profileOrThrow(profiles, profileId);
      if (await profiles.ownedOrClaimedBy(member.userId)) throw alreadyExists(MESSAGES.oneClaim);
      if (target.userId !== null || target.claimantId !== null) throw alreadyExists(MESSAGES.alreadyClaimed);
      const email = member.email.trim().toLowerCase();
      const claimant = {
        userId: member.userId,
        firstName: claimantName(names.firstName),
        lastName: claimantName(names.lastName),
        email,
      };
      const outcome = await profiles.claimProfile(
        profileId,
        claimant,
        (state) =>
          claimConfirmsAtOnce(member.email, state.workEmail, {
            workEmailChangedAt: state.workEmailChangedAt,
            claimantIsContributor: isContributor(member),
          }),
        {
          actorUserId: member.userId,
          action: 'claim_confirmed',
          changes: [
            { field: 'claim', from: null, to: 'confirmed' },
            { field: 'owner', from: null, to: claimantShown(claimant) },
          ],
        },
      );
      switch (outcome.kind) {
        case 'claimed':
          // A confirmed claim makes the member the owner, with their email's domain: the card's badge may change.
          if (outcome.profile.userId === member.userId) await directory.profilesChanged([profileId]);
          return viewFor(member, outcome.profile);
        case 'owner_has_one':
          throw alreadyExists(MESSAGES.oneClaim);
        case 'taken':
          throw alreadyExists(MESSAGES.alreadyClaimed);
        default:
          throw notFound(MESSAGES.profileNotFound);
      }
    },

    /** The claims a contributor has yet to decide, oldest first. */
    async listPendingClaims(caller: Caller | undefined): Promise<PendingClaim[]> {
      requireContributor(caller);
      return profiles.listPendingClaims();
    },

    /**
     * A contributor confirms a pending claim (the claimant becomes the owner) or rejects it (the profile is left
     * as it was), once; never their own claim, nor a claim on a profile whose work email they changed last.
     */
    async decideClaim(caller: Caller | undefined, claimId: number, decision: string): Promise<DecidedClaim> {
      const contributor = requireContributor(caller);
      if (!Object.hasOwn(CLAIM_DECISIONS, decision)) throw invalidArgument(MESSAGES.badDecision);
      const claim = validId(claimId) ? await profiles.findClaimant(claimId) : null;
      if (claim === null) throw notFound(MESSAGES.claimNotFound);
      if (claim.userId === contributor.userId) throw permissionDenied(MESSAGES.ownClaim);
      // Whoever set the work email a claim matched is not the one to hand the profile over.
      if (claim.workEmailChangedBy === contributor.userId) throw permissionDenied(MESSAGES.changedWorkEmail);
      const { status } = CLAIM_DECISIONS[decision as ClaimDecision];
      const outcome = await profiles.decideClaim(
        claimId,
        CLAIM_DECISIONS[decision as ClaimDecision],
        (claimant) => ({
          actorUserId: contributor.userId,
          action: status === 'confirmed' ? 'claim_confirmed' : 'claim_rejected',
          changes: [
            { field: 'claim', from: 'pending', to: status },
            status === 'confirmed'
              ? { field: 'owner', from: null, to: claimantShown(claimant) }
              : { field: 'claimant', from: claimantShown(claimant), to: null },
          ],
        }),
      );
      switch (outcome.kind) {
        case 'decided':
          if (outcome.claim.status === 'confirmed')
            await directory.profilesChanged([outcome.claim.profileId]);
          return outcome.claim;
        case 'decided_before':
          throw failedPrecondition(MESSAGES.claimDecided);
        default:
          throw notFound(MESSAGES.claimNotFound);
      }
    },
  };
}

export type ClaimService = ReturnType<typeof createClaimService>;
