// The profile service's rules for profiles (docs/product.md#3-entities-and-their-fields to
// #7-the-calls-it-makes): creating one's own profile, editing by the owner or by a
// contributor while unclaimed, the lobbyist filer id for contributors only, bios, pictures through the image
// pipeline (an upload named by a profile within the hour), the whole directory without personal contact
// details and a few times in a while per member, and the profile's curation history for contributors. Claims
// are claim-service.ts's; colleagues and the author lookups people-lookups.ts's. Knows nothing of gRPC, HTTP
// or Prisma: it works through its ports.
import {
  isAttachableUpload,
  mediaKeyOf,
  mediaUrl,
  type ObjectStore,
  objectKey,
  type ProcessedImage,
  removeQuietly,
} from '@rotunda/images';
import { emailDomainOf, IMAGE_MESSAGES } from '@rotunda/rules';
import {
  type Caller,
  createHistoryReader,
  DomainError,
  fieldChanges,
  invalidArgument,
  isContributor,
  permissionDenied,
  requireMember,
} from '@rotunda/service-kit';
import {
  alreadyExists,
  lostRace,
  MESSAGES,
  ownershipOrThrow,
  profileOrThrow,
  requireEditor,
  viewFor,
} from './access.ts';
import type { PeopleDirectory } from './directory.ts';
import { curationOf } from './history.ts';
import type {
  ListedProfile,
  OwnedProfile,
  Profile,
  ProfileFieldKey,
  ProfileFields,
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

/** The profile fields the directory's card and its search hold: a change to one is told to the index. */
const CARD_FIELDS = [
  'firstName',
  'lastName',
  'preferredName',
  'profilePicture',
] as const satisfies readonly ProfileFieldKey[];

/** The largest upload the service takes before resizing; the resized result must fit 5,242,880 bytes. */
export const MAX_PICTURE_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Profiles read per query while the whole directory streams out. */
const DIRECTORY_BATCH = 500;
/**
 * How often a member may download the whole directory. No screen asks for it (the directory pages through the
 * search); each download reads every profile, so a member asking in a loop would cost everyone.
 */
export const WHOLE_DIRECTORY_LIMIT = { downloads: 20, windowSeconds: 600 } as const;

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
  /** Milliseconds since the epoch, for the age of uploads. */
  now?: () => number;
  directoryLimit?: { downloads: number; windowSeconds: number };
}

export function createProfileService({
  profiles,
  quota,
  processImage,
  store,
  logger,
  directory,
  now = Date.now,
  directoryLimit = WHOLE_DIRECTORY_LIMIT,
}: ProfileServiceDependencies) {
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

  /** Removes a replaced picture's object unless another profile still shows it. */
  async function removeReplaced(previous: string | null, current: string | null) {
    const key = previous && previous !== current ? mediaKeyOf(previous) : null;
    if (key && !(await profiles.isPictureInUse(previous as string)))
      await removeQuietly(store, key, logger, 'profile: picture not removed');
  }

  return {
    /**
     * Every profile with its current jobs (the directory call as built,
     * docs/product.md#7-the-calls-it-makes), without personal contact details, a batch at a time so the whole
     * directory is never in memory at once; a few times per member in a while.
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
     * The caller's own profile id, or the one their pending claim waits on, which the create flow sends them to
     * (0 or 1 entries).
     */
    async userCheck(caller: Caller | undefined): Promise<OwnedProfile[]> {
      const member = requireMember(caller);
      const owned = await profiles.ownedOrClaimedBy(member.userId);
      if (owned && !owned.claimPending)
        await withOwnerEmailDomain(member, await profileOrThrow(profiles, owned.profileId));
      return owned ? [owned] : [];
    },

    async getProfile(caller: Caller | undefined, profileId: number): Promise<ProfileView> {
      const member = requireMember(caller);
      return viewFor(member, await withOwnerEmailDomain(member, await profileOrThrow(profiles, profileId)));
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
     * The edit form (docs/product.md#5-validation-rules edit profile): the owner, or a contributor while
     * unclaimed; the lobbyist filer id changes only by a contributor (the unchanged value sent back is no
     * change); the required fields must stay filled. Absent fields keep their value; a replaced picture's
     * object is removed.
     */
    async updateProfile(
      caller: Caller | undefined,
      profileId: number,
      input: ProfileInput,
    ): Promise<ProfileView> {
      const member = requireMember(caller);
      const current = await profileOrThrow(profiles, profileId);
      requireEditor(member, current);
      const changes = { ...input };
      // Contributors alone see and edit the filer id (docs/product.md#6-roles-and-permissions); the value
      // sent back unchanged is no change.
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
      // A changed work email is remembered with its editor: claims matching it wait a while (claim-service.ts).
      const emailChanged = fields.workEmail !== undefined && fields.workEmail !== current.workEmail;
      const updated = await profiles.updateProfile(
        profileId,
        current.userId,
        fields,
        curationOf(member, current, 'profile_edited', fieldChanges(current, fields)),
        emailChanged ? member.userId : undefined,
      );
      if (!updated) throw await afterLostRace(profileId);
      // The directory's card holds the names and the picture.
      if (CARD_FIELDS.some((key) => fields[key] !== undefined)) await directory.profilesChanged([profileId]);
      if (fields.profilePicture !== undefined)
        await removeReplaced(current.profilePicture, updated.profilePicture);
      return viewFor(member, updated);
    },

    /**
     * The bio step and the bio box (docs/product.md#5-validation-rules): required; the owner, or a
     * contributor while unclaimed.
     */
    async setBio(caller: Caller | undefined, profileId: number, bio: string): Promise<ProfileView> {
      const member = requireMember(caller);
      const owner = await ownershipOrThrow(profiles, profileId);
      requireEditor(member, owner);
      const userBio = cleanBio(bio);
      // The bio before, for the history of a contributor's edit (an owner's edits are not recorded).
      const before = owner.userId === null ? await profileOrThrow(profiles, profileId) : {};
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
     * Checks and resizes the upload (docs/product.md#5-validation-rules image upload) and stores it under a
     * new server-made key. With a profile the picture is set there (owner, or contributor while unclaimed)
     * and the replaced one removed; without, the image is only stored, for create-profile to name.
     */
    async uploadPicture(caller: Caller | undefined, image: Buffer, profileId?: number): Promise<string> {
      const member = requireMember(caller);
      if (image.length === 0) throw invalidArgument(MESSAGES.noImage);
      if (image.length > MAX_PICTURE_UPLOAD_BYTES) throw invalidArgument(IMAGE_MESSAGES.tooLarge);
      const owner = profileId === undefined ? null : await ownershipOrThrow(profiles, profileId);
      if (owner) requireEditor(member, owner);
      const processed = await processImage(image);
      const key = objectKey('pictures', processed.extension);
      await store.put(key, processed.data, processed.contentType);
      const url = mediaUrl(key);
      if (!owner) return url;
      const before = owner.userId === null ? await profileOrThrow(profiles, owner.profileId) : {};
      const set = await profiles.setPicture(
        owner.profileId,
        owner.userId,
        url,
        curationOf(member, owner, 'picture_changed', fieldChanges(before, { profilePicture: url })),
      );
      if (!set) {
        await removeQuietly(store, key, logger, 'profile: picture not removed');
        throw await afterLostRace(owner.profileId);
      }
      await directory.profilesChanged([owner.profileId]);
      await removeReplaced(set.previous, url);
      return url;
    },

    /** Contributors only: the profile's curation history, newest first, a page older than `beforeId`. */
    profileHistory: createHistoryReader(
      (profileId, beforeId, limit) => profiles.historyOf(profileId, beforeId, limit),
      async (profileId) => (await profiles.findOwnership(profileId)) !== null,
      MESSAGES.profileNotFound,
    ),

    /** Internal, for the sweep of uploads no profile took: of these picture keys, the ones a profile shows. */
    async picturesInUse(keys: readonly string[]): Promise<string[]> {
      if (keys.length === 0) return [];
      const used = await profiles.picturesInUse(keys.map(mediaUrl));
      return used.flatMap((url) => mediaKeyOf(url) ?? []);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
