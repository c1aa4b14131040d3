// The profile service's rules for profiles (spec §3–§7, DESIGN's fixes): creating one's own profile, finding
// unclaimed profiles to claim and claiming one (confirmed at once when the member's confirmed account email is
// the profile's work email, else pending until a contributor confirms, the profile unowned meanwhile), editing
// by the owner or by a contributor while unclaimed, the lobbyist filer id for contributors only, bios, pictures
// through the image pipeline (an upload named by a profile within the hour), the whole directory without
// personal contact details and a few times in a while per member, colleagues and the author lookups posts use.
// Knows nothing of gRPC, HTTP or Prisma: it works through its ports.
import {
  isAttachableUpload,
  mediaKeyOf,
  mediaUrl,
  type ObjectStore,
  objectKey,
  type ProcessedImage,
} from '@rotunda/images';
import { claimConfirmsAtOnce, emailDomainOf, IMAGE_MESSAGES } from '@rotunda/rules';
import {
  type Caller,
  DomainError,
  fieldChanges,
  historyPageSize,
  invalidArgument,
  isContributor,
  notFound,
  permissionDenied,
  requireContributor,
  requireMember,
} from '@rotunda/service-kit';
import { alreadyExists, failedPrecondition, lostRace, MESSAGES, requireEditor } from './access.ts';
import type { PeopleDirectory } from './directory.ts';
import { claimantName as claimantShown, curationOf, type HistoryEntry } from './history.ts';
import type {
  Author,
  ClaimDecision,
  ClaimStatus,
  Colleague,
  DecidedClaim,
  ListedProfile,
  OwnedProfile,
  PendingClaim,
  Profile,
  ProfileFields,
  ProfileOwnership,
  ProfileView,
} from './model.ts';
import type { DirectoryQuota, ProfileRepository } from './ports.ts';
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
import { isVerifiedEmployer } from './verified-employer.ts';

/** The largest upload the service takes before resizing; the resized result must fit 5,242,880 bytes. */
export const MAX_PICTURE_UPLOAD_BYTES = 10 * 1024 * 1024;
/** How many authors one lookup answers at most (posts ask for a page's authors at once). */
export const AUTHORS_LIMIT = 1000;
const DEFAULT_AUTHORS_PAGE = 100;
/** Profiles read per query while the whole directory streams out. */
const DIRECTORY_BATCH = 500;
/**
 * How often a member may download the whole directory. No screen asks for it (the directory pages through the
 * search); each download reads every profile, so a member asking in a loop would cost everyone.
 */
export const WHOLE_DIRECTORY_LIMIT = { downloads: 20, windowSeconds: 600 } as const;
/** The longest claimant name kept (names come from the account, which limits them already). */
const CLAIMANT_NAME_LENGTH = 100;

export interface ProfileServiceDependencies {
  profiles: ProfileRepository;
  /** Counts whole-directory downloads per member. */
  quota: DirectoryQuota;
  /** Sniffs, bounds, orients, strips and resizes an upload (@rotunda/images processImage). */
  processImage: (input: Buffer) => Promise<ProcessedImage>;
  store: Pick<ObjectStore, 'put' | 'remove' | 'stat'>;
  logger: { warn(obj: object, msg: string): void };
  /** The people directory's index, told of every write that changes a name. */
  directory: Pick<PeopleDirectory, 'profilesChanged'>;
  /** A number in [0, 1): colleague lists are shuffled with it. */
  random?: () => number;
  /** Milliseconds since the epoch, for the age of uploads. */
  now?: () => number;
  directoryLimit?: { downloads: number; windowSeconds: number };
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
const CLAIM_DECISIONS: Record<ClaimDecision, { status: ClaimStatus; giveOwnership: boolean }> = {
  confirm: { status: 'confirmed', giveOwnership: true },
  reject: { status: 'rejected', giveOwnership: false },
};

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

const claimantName = (name: string) => name.trim().replace(/\s+/g, ' ').slice(0, CLAIMANT_NAME_LENGTH);

export function createProfileService({
  profiles,
  quota,
  processImage,
  store,
  logger,
  directory,
  random = Math.random,
  now = Date.now,
  directoryLimit = WHOLE_DIRECTORY_LIMIT,
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

  /**
   * Keeps the domain of the owner's account email (the badge's) as the caller token has it, when the owner is
   * the caller: profiles created before it was recorded learn it so. Answers the profile as it now is.
   */
  const withOwnerEmailDomain = async (member: Caller, profile: Profile): Promise<Profile> => {
    const emailDomain = emailDomainOf(member.email);
    if (profile.userId !== member.userId || profile.ownerEmailDomain === emailDomain) return profile;
    if (!(await profiles.recordOwnerEmailDomain(profile.profileId, member.userId, emailDomain)))
      return profile;
    await directory.profilesChanged([profile.profileId]);
    return { ...profile, ownerEmailDomain: emailDomain };
  };

  /**
   * A profile may name a picture uploaded for it only while the upload is young: an hour on, a sweep removes
   * uploads no profile names, and a profile pointing at a removed object would show no picture.
   */
  async function requireAttachable(url: string) {
    const key = mediaKeyOf(url);
    const stored = key ? await store.stat(key) : null;
    if (!stored || !isAttachableUpload(stored.lastModified, now()))
      throw invalidArgument(MESSAGES.pictureExpired);
  }

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
    /**
     * Every profile with its current jobs (the directory call as built, spec §7), without personal contact
     * details, a batch at a time so the whole directory is never in memory at once; a few times per member in a
     * while.
     */
    async *listDirectory(caller: Caller | undefined): AsyncGenerator<ListedProfile> {
      const member = requireMember(caller);
      const wait = await quota.take(member.userId, directoryLimit);
      if (wait > 0) throw new DomainError('resource_exhausted', MESSAGES.tooManyDownloads(wait));
      let after: number | null = null;
      for (;;) {
        const batch = await profiles.listDirectoryPage(after, DIRECTORY_BATCH);
        yield* batch;
        if (batch.length < DIRECTORY_BATCH) return;
        after = batch[batch.length - 1]?.profileId ?? null;
      }
    },

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
     * The caller's own profile id, or the one their pending claim waits on, which the create flow sends them to
     * (0 or 1 entries).
     */
    async userCheck(caller: Caller | undefined): Promise<OwnedProfile[]> {
      const member = requireMember(caller);
      const owned = await profiles.ownedOrClaimedBy(member.userId);
      if (owned && !owned.claimPending) await withOwnerEmailDomain(member, await getOrThrow(owned.profileId));
      return owned ? [owned] : [];
    },

    async getProfile(caller: Caller | undefined, profileId: number): Promise<ProfileView> {
      const member = requireMember(caller);
      return viewFor(member, await withOwnerEmailDomain(member, await getOrThrow(profileId)));
    },

    /**
     * Create-profile step 1: the caller's own profile; the owner is the caller, whatever was sent. Not while a
     * claim of theirs waits (one profile per member).
     */
    async createProfile(caller: Caller | undefined, input: ProfileInput): Promise<ProfileView> {
      const member = requireMember(caller);
      const mine = await profiles.ownedOrClaimedBy(member.userId);
      if (mine) throw alreadyExists(mine.claimPending ? MESSAGES.claimWaiting : MESSAGES.alreadyHaveProfile);
      requireProfileFields(input);
      // The filer id is a contributor's edit of an existing profile, never part of creating one's own.
      const { lobbyFilerId: _ignored, ...fields } = cleanProfileFields(input);
      if (fields.profilePicture) await requireAttachable(fields.profilePicture);
      const outcome = await profiles.createProfile(member.userId, {
        ...emptyProfileFields(),
        ...fields,
      } as ProfileFields);
      if (outcome.kind === 'owns_one') throw alreadyExists(MESSAGES.alreadyHaveProfile);
      if (outcome.kind === 'claim_waiting') throw alreadyExists(MESSAGES.claimWaiting);
      const created = await withOwnerEmailDomain(member, outcome.profile);
      await directory.profilesChanged([outcome.profile.profileId]);
      return viewFor(member, created);
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
    ): Promise<ProfileView> {
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
      if (fields.profilePicture && fields.profilePicture !== current.profilePicture)
        await requireAttachable(fields.profilePicture);
      const updated = await profiles.updateProfile(
        profileId,
        current.userId,
        fields,
        curationOf(member, current, 'profile_edited', fieldChanges(current, fields)),
      );
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
      return viewFor(member, updated);
    },

    /** The bio step and the bio box (spec §5): required; the owner, or a contributor while unclaimed. */
    async setBio(caller: Caller | undefined, profileId: number, bio: string): Promise<ProfileView> {
      const member = requireMember(caller);
      const owner = await ownershipOrThrow(profileId);
      requireEditor(member, owner);
      const userBio = cleanBio(bio);
      // The bio before, for the history of a contributor's edit (an owner's edits are not recorded).
      const before = owner.userId === null ? await getOrThrow(profileId) : {};
      const updated = await profiles.setBio(
        profileId,
        owner.userId,
        userBio,
        curationOf(member, owner, 'bio_edited', fieldChanges(before, { userBio })),
      );
      if (!updated) throw await afterLostRace(profileId);
      return viewFor(member, updated);
    },

    /**
     * A member claims a profile nobody owns and no other claim waits on (spec §4). When the member's confirmed
     * account email (the access token's) is the profile's work email, the claim is confirmed and the profile
     * theirs at once; otherwise it waits for a contributor, and until then the profile stays as it is: not the
     * claimant's to change or post as. One profile or claim per member.
     */
    async claimProfile(
      caller: Caller | undefined,
      profileId: number,
      names: ClaimantNames,
    ): Promise<ProfileView> {
      const member = requireMember(caller);
      const target = await getOrThrow(profileId);
      if (await profiles.ownedOrClaimedBy(member.userId)) throw alreadyExists(MESSAGES.oneClaim);
      if (target.userId !== null || target.claimantId !== null) throw alreadyExists(MESSAGES.alreadyClaimed);
      const email = member.email.trim().toLowerCase();
      const confirmNow = claimConfirmsAtOnce(member.email, target.workEmail);
      const claimant = {
        userId: member.userId,
        firstName: claimantName(names.firstName),
        lastName: claimantName(names.lastName),
        email,
      };
      const outcome = await profiles.claimProfile(profileId, claimant, confirmNow);
      switch (outcome.kind) {
        case 'claimed':
          // A confirmed claim makes the member the owner, with their email's domain: the card's badge may change.
          if (confirmNow) await directory.profilesChanged([profileId]);
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
     * as it was), once; never their own claim.
     */
    async decideClaim(caller: Caller | undefined, claimId: number, decision: string): Promise<DecidedClaim> {
      const contributor = requireContributor(caller);
      if (!Object.hasOwn(CLAIM_DECISIONS, decision)) throw invalidArgument(MESSAGES.badDecision);
      const claimant = validId(claimId) ? await profiles.findClaimant(claimId) : null;
      if (claimant === null) throw notFound(MESSAGES.claimNotFound);
      if (claimant === contributor.userId) throw permissionDenied(MESSAGES.ownClaim);
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
      const before = owner.userId === null ? await getOrThrow(owner.profileId) : {};
      const set = await profiles.setPicture(
        owner.profileId,
        owner.userId,
        url,
        curationOf(member, owner, 'picture_changed', fieldChanges(before, { profilePicture: url })),
      );
      if (!set) {
        await removeQuietly(key);
        throw await afterLostRace(owner.profileId);
      }
      await directory.profilesChanged([owner.profileId]);
      await removeReplaced(set.previous, url);
      return url;
    },

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

    /** Internal: the profiles these members own (the names a history shows for its actors). */
    async authorsByUsers(userIds: readonly string[]): Promise<Author[]> {
      if (userIds.length > AUTHORS_LIMIT)
        throw invalidArgument(`Ask for at most ${AUTHORS_LIMIT} authors at a time.`);
      const ids = [...new Set(userIds.filter((id) => id !== ''))];
      return ids.length === 0 ? [] : profiles.authorsByUsers(ids);
    },

    /** Contributors only: the profile's curation history, newest first, a page older than `beforeId`. */
    async profileHistory(
      caller: Caller | undefined,
      profileId: number,
      beforeId: number,
      limit: number,
    ): Promise<HistoryEntry[]> {
      requireContributor(caller);
      await ownershipOrThrow(profileId);
      const page = historyPageSize(limit);
      return profiles.historyOf(profileId, beforeId > 0 ? Math.floor(beforeId) : null, page);
    },

    /** Internal, for the sweep of uploads no profile took: of these picture keys, the ones a profile shows. */
    async picturesInUse(keys: readonly string[]): Promise<string[]> {
      if (keys.length === 0) return [];
      const used = await profiles.picturesInUse(keys.map(mediaUrl));
      return used.flatMap((url) => mediaKeyOf(url) ?? []);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
