// The profile service's rules for profiles (spec §3–§7, DESIGN's fixes): creating one's own profile, finding
// unclaimed profiles to claim and claiming one (recorded for a contributor to confirm or reject), editing by the
// owner or by a contributor while unclaimed, the lobbyist filer id for contributors only, bios, pictures through
// the image pipeline, the directory, colleagues and the author lookups posts use. Knows nothing of gRPC, HTTP or
// Prisma: it works through its ports.
import { mediaKeyOf, mediaUrl, type ObjectStore, objectKey, type ProcessedImage } from '@rotunda/images';
import { IMAGE_MESSAGES } from '@rotunda/rules';
import {
  type Caller,
  invalidArgument,
  isContributor,
  notFound,
  permissionDenied,
  requireContributor,
  requireMember,
} from '@rotunda/service-kit';
import { alreadyExists, failedPrecondition, lostRace, MESSAGES, requireEditor } from './access.ts';
import type { PeopleDirectory } from './directory.ts';
import type {
  Author,
  ClaimDecision,
  ClaimStatus,
  Colleague,
  DecidedClaim,
  PendingClaim,
  Profile,
  ProfileFields,
  ProfileOwnership,
} from './model.ts';
import type { ProfileRepository } from './ports.ts';
import {
  cleanBio,
  cleanProfileFields,
  cleanText,
  emptyProfileFields,
  PROFILE_LABELS,
  type ProfileInput,
  REQUIRED_PROFILE_FIELDS,
  requireProfileFields,
} from './rules.ts';

/** The largest upload the service takes before resizing; the resized result must fit 5,242,880 bytes. */
export const MAX_PICTURE_UPLOAD_BYTES = 10 * 1024 * 1024;
/** How many authors one lookup answers at most (posts ask for a page's authors at once). */
export const AUTHORS_LIMIT = 1000;
const DEFAULT_AUTHORS_PAGE = 100;
/** Profiles read per query while the whole directory streams out. */
const DIRECTORY_BATCH = 500;

export interface ProfileServiceDependencies {
  profiles: ProfileRepository;
  /** Sniffs, bounds, orients, strips and resizes an upload (@rotunda/images processImage). */
  processImage: (input: Buffer) => Promise<ProcessedImage>;
  store: Pick<ObjectStore, 'put' | 'remove'>;
  logger: { warn(obj: object, msg: string): void };
  /** The people directory's index, told of every write that changes a name. */
  directory: Pick<PeopleDirectory, 'profilesChanged'>;
  /** A number in [0, 1): colleague lists are shuffled with it. */
  random?: () => number;
}

export interface MatchInput {
  firstName: string;
  lastName: string;
  email: string;
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [result[i], result[j]] = [result[j] as T, result[i] as T];
  }
  return result;
}

const validId = (id: number) => Number.isSafeInteger(id) && id > 0;

/**
 * What deciding a claim does: a confirmed claim leaves the member the owner; a rejected one gives the profile up,
 * unclaimed again, for another member to claim or a contributor to edit.
 */
const CLAIM_DECISIONS: Record<ClaimDecision, { status: ClaimStatus; unclaim: boolean }> = {
  confirm: { status: 'confirmed', unclaim: false },
  reject: { status: 'rejected', unclaim: true },
};

export function createProfileService({
  profiles,
  processImage,
  store,
  logger,
  directory,
  random = Math.random,
}: ProfileServiceDependencies) {
  const getOrThrow = async (profileId: number): Promise<Profile> => {
    const profile = validId(profileId) ? await profiles.findProfile(profileId) : null;
    if (!profile) throw notFound(MESSAGES.profileNotFound);
    return profile;
  };

  const ownershipOrThrow = async (profileId: number): Promise<ProfileOwnership> => {
    const owner = validId(profileId) ? await profiles.findOwnership(profileId) : null;
    if (!owner) throw notFound(MESSAGES.profileNotFound);
    return owner;
  };

  const afterLostRace = async (profileId: number) => lostRace(await profiles.findOwnership(profileId));

  async function removeQuietly(key: string) {
    try {
      await store.remove(key);
    } catch (error) {
      // An orphaned object costs a little storage; failing the member's edit for it would cost more.
      logger.warn(
        { key, err: error instanceof Error ? error.message : String(error) },
        'profile: picture not removed',
      );
    }
  }

  /** Removes a replaced picture's object unless another profile still shows it. */
  async function removeReplaced(previous: string | null, current: string | null) {
    const key = previous && previous !== current ? mediaKeyOf(previous) : null;
    if (key && !(await profiles.isPictureInUse(previous as string))) await removeQuietly(key);
  }

  return {
    /** Every profile with its current jobs (the directory call as built, spec §7). */
    /** Every profile, a batch at a time, so the whole directory is never in memory at once. */
    async *listDirectory(caller: Caller | undefined): AsyncGenerator<Profile> {
      requireMember(caller);
      let after: number | null = null;
      for (;;) {
        const batch = await profiles.listDirectoryPage(after, DIRECTORY_BATCH);
        yield* batch;
        if (batch.length < DIRECTORY_BATCH) return;
        after = batch[batch.length - 1]?.profileId ?? null;
      }
    },

    /** Create-profile step 0: unclaimed profiles that match all three, any case; never a claimed one. */
    async findUnclaimedMatches(caller: Caller | undefined, input: MatchInput): Promise<Profile[]> {
      requireMember(caller);
      const firstName = input.firstName.trim();
      const lastName = input.lastName.trim();
      const email = input.email.trim().toLowerCase();
      if (!firstName || !lastName || !email) return [];
      return profiles.findUnclaimedMatches(firstName, lastName, email);
    },

    /** The caller's own profile id, if any (0 or 1 entries). */
    async userCheck(caller: Caller | undefined): Promise<{ userId: string; profileId: number }[]> {
      const member = requireMember(caller);
      const profileId = await profiles.profileIdOfUser(member.userId);
      return profileId === null ? [] : [{ userId: member.userId, profileId }];
    },

    async getProfile(caller: Caller | undefined, profileId: number): Promise<Profile> {
      requireMember(caller);
      return getOrThrow(profileId);
    },

    /** Create-profile step 1: the caller's own profile; the owner is the caller, whatever was sent. */
    async createProfile(caller: Caller | undefined, input: ProfileInput): Promise<Profile> {
      const member = requireMember(caller);
      if ((await profiles.profileIdOfUser(member.userId)) !== null)
        throw alreadyExists(MESSAGES.alreadyHaveProfile);
      requireProfileFields(input);
      // The filer id is a contributor's edit of an existing profile, never part of creating one's own.
      const { lobbyFilerId: _ignored, ...fields } = cleanProfileFields(input);
      const created = await profiles.createProfile(member.userId, {
        ...emptyProfileFields(),
        ...fields,
      } as ProfileFields);
      if (!created) throw alreadyExists(MESSAGES.alreadyHaveProfile);
      await directory.profilesChanged([created.profileId]);
      return created;
    },

    /**
     * The edit form (spec §5 edit profile): the owner, or a contributor while unclaimed; the lobbyist filer id
     * changes only by a contributor (the unchanged value sent back is no change); the required fields must stay
     * filled. Absent fields keep their value; a replaced picture's object is removed.
     */
    async updateProfile(
      caller: Caller | undefined,
      profileId: number,
      input: ProfileInput,
    ): Promise<Profile> {
      const member = requireMember(caller);
      const current = await getOrThrow(profileId);
      requireEditor(member, current);
      const changes = { ...input };
      // Contributors alone see and edit the filer id (spec §6); the value sent back unchanged is no change.
      if (changes.lobbyFilerId !== undefined && !isContributor(member)) {
        const wanted = cleanText(changes.lobbyFilerId, PROFILE_LABELS.lobbyFilerId, 32) ?? null;
        if (wanted !== current.lobbyFilerId) throw permissionDenied(MESSAGES.filerIdConcierge);
        delete changes.lobbyFilerId;
      }
      requireProfileFields(
        Object.fromEntries(
          REQUIRED_PROFILE_FIELDS.map((name) => [
            name,
            changes[name] === undefined ? current[name] : changes[name],
          ]),
        ),
      );
      const fields = cleanProfileFields(changes);
      const updated = await profiles.updateProfile(profileId, current.userId, fields);
      if (!updated) throw await afterLostRace(profileId);
      // The directory's card holds the names and the picture.
      if (
        fields.firstName !== undefined ||
        fields.lastName !== undefined ||
        fields.profilePicture !== undefined
      )
        await directory.profilesChanged([profileId]);
      if (fields.profilePicture !== undefined)
        await removeReplaced(current.profilePicture, updated.profilePicture);
      return updated;
    },

    /** The bio step and the bio box (spec §5): required; the owner, or a contributor while unclaimed. */
    async setBio(caller: Caller | undefined, profileId: number, bio: string): Promise<Profile> {
      const member = requireMember(caller);
      const owner = await ownershipOrThrow(profileId);
      requireEditor(member, owner);
      const updated = await profiles.setBio(profileId, owner.userId, cleanBio(bio));
      if (!updated) throw await afterLostRace(profileId);
      return updated;
    },

    /**
     * A member claims a profile nobody owns (spec §4): it is theirs at once and the claim waits for a
     * contributor to confirm. One profile per member.
     */
    async claimProfile(caller: Caller | undefined, profileId: number): Promise<Profile> {
      const member = requireMember(caller);
      const target = await ownershipOrThrow(profileId);
      if ((await profiles.profileIdOfUser(member.userId)) !== null) throw alreadyExists(MESSAGES.oneClaim);
      if (target.userId !== null) throw alreadyExists(MESSAGES.alreadyClaimed);
      const outcome = await profiles.claimProfile(profileId, member.userId);
      switch (outcome.kind) {
        case 'claimed':
          return outcome.profile;
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

    /** A contributor confirms or rejects a pending claim, once. */
    async decideClaim(caller: Caller | undefined, claimId: number, decision: string): Promise<DecidedClaim> {
      requireContributor(caller);
      if (!Object.hasOwn(CLAIM_DECISIONS, decision)) throw invalidArgument(MESSAGES.badDecision);
      const outcome = validId(claimId)
        ? await profiles.decideClaim(claimId, CLAIM_DECISIONS[decision as ClaimDecision])
        : { kind: 'not_found' as const };
      switch (outcome.kind) {
        case 'decided':
          return outcome.claim;
        case 'decided_before':
          throw failedPrecondition(MESSAGES.claimDecided);
        default:
          throw notFound(MESSAGES.claimNotFound);
      }
    },

    /**
     * Checks and resizes the upload (spec §5 image upload) and stores it under a new server-made key. With a
     * profile the picture is set there (owner, or contributor while unclaimed) and the replaced one removed;
     * without, the image is only stored, for create-profile to name.
     */
    async uploadPicture(caller: Caller | undefined, image: Buffer, profileId?: number): Promise<string> {
      const member = requireMember(caller);
      if (image.length === 0) throw invalidArgument(MESSAGES.noImage);
      if (image.length > MAX_PICTURE_UPLOAD_BYTES) throw invalidArgument(IMAGE_MESSAGES.tooLarge);
      const owner = profileId === undefined ? null : await ownershipOrThrow(profileId);
      if (owner) requireEditor(member, owner);
      const processed = await processImage(image);
      const key = objectKey('pictures', processed.extension);
      await store.put(key, processed.data, processed.contentType);
      const url = mediaUrl(key);
      if (!owner) return url;
      const set = await profiles.setPicture(owner.profileId, owner.userId, url);
      if (!set) {
        await removeQuietly(key);
        throw await afterLostRace(owner.profileId);
      }
      await directory.profilesChanged([owner.profileId]);
      await removeReplaced(set.previous, url);
      return url;
    },

    /** People with a current job at the organization, one per profile, shuffled, the caller left out. */
    /**
     * Everyone working there now, shuffled. Nobody is left out here: the profile page leaves out the profile on
     * screen, the organization's People tab the member's own (spec §2, §9).
     */
    async organizationColleagues(caller: Caller | undefined, organizationId: number): Promise<Colleague[]> {
      requireMember(caller);
      if (!validId(organizationId)) return [];
      return shuffled(await profiles.colleagues({ organizationId }), random);
    },

    async divisionColleagues(caller: Caller | undefined, divisionId: number): Promise<Colleague[]> {
      requireMember(caller);
      if (!validId(divisionId)) return [];
      return shuffled(await profiles.colleagues({ divisionId }), random);
    },

    /** Internal: the member's profile as a post's author. */
    async authorByUser(userId: string): Promise<Author> {
      const author = userId ? await profiles.authorByUser(userId) : null;
      if (!author) throw notFound(MESSAGES.profileNotFound);
      return author;
    },

    async authors(profileIds: readonly number[]): Promise<Author[]> {
      if (profileIds.length > AUTHORS_LIMIT)
        throw invalidArgument(`Ask for at most ${AUTHORS_LIMIT} authors at a time.`);
      const ids = [...new Set(profileIds.filter(validId))];
      return ids.length === 0 ? [] : profiles.authorsByIds(ids);
    },

    async listAuthors(afterProfileId: number, limit: number): Promise<Author[]> {
      const page = limit > 0 ? Math.min(Math.floor(limit), AUTHORS_LIMIT) : DEFAULT_AUTHORS_PAGE;
      return profiles.listAuthors(Math.max(0, Math.floor(afterProfileId)), page);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
