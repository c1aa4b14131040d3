// Profiles in the profile schema through Prisma, with the organization and division names taken from the read
// copies: reads, creation and the owner's or a contributor's edits; claims, the people lookups and the curation
// history are their own modules', composed here into the one repository the rules see. Every write to a profile
// row announces a 'profile' change in its transaction, so the services keeping a copy of names hear of it exactly
// when it commits (ADR 0012). Lists never read the personal contact details. Raw SQL only for row and advisory
// locks and case-insensitive equality.
import { markCreated, NO_SEARCH_OUTBOX, type SearchOutbox } from '@rotunda/service-kit';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import type { Curation } from '../domain/history.ts';
import type { Profile } from '../domain/model.ts';
import type { ProfileRepository } from '../domain/ports.ts';
import { prismaClaimRepository } from './prisma-claim-repository.ts';
import { prismaHistoryReads, recordCuration } from './prisma-history.ts';
import { prismaPeopleReads } from './prisma-people-reads.ts';
import {
  listedProfilesOf,
  pendingClaim,
  personalOmitted,
  profileData,
  profileInclude,
  profilesOf,
} from './prisma-profile-rows.ts';
import {
  announceProfile,
  hasPendingClaim,
  isUniqueViolation,
  lockMember,
  tableOf,
} from './prisma-profile-sql.ts';

/** `outbox` notes each write that changes a profile's directory document in its transaction (ADR 0057). */
export function prismaProfileRepository(
  prisma: PrismaClient,
  schema: string,
  outbox: SearchOutbox = NO_SEARCH_OUTBOX,
): ProfileRepository {
  const table = tableOf(schema);

  const findProfile = async (profileId: number) => {
    const row = await prisma.profile.findUnique({ where: { profileId }, include: profileInclude(false) });
    return row ? ((await profilesOf(prisma, [row]))[0] ?? null) : null;
  };

  /**
   * Writes the profile row while it still has `owner` and announces the change; answers the profile as it is
   * after the commit. (Read outside the transaction: Prisma loads a profile's relations in parallel, which one
   * transaction's single connection would have to queue.)
   */
  const writeOwned = async (
    profileId: number,
    owner: string | null,
    data: Prisma.ProfileUncheckedUpdateInput,
    curation?: Curation,
  ): Promise<Profile | null> => {
    const written = await prisma.$transaction(async (tx) => {
      const { count } = await tx.profile.updateMany({ where: { profileId, userId: owner }, data });
      if (count === 0) return false;
      await recordCuration(tx, profileId, curation);
      await announceProfile(tx, await tx.profile.findUniqueOrThrow({ where: { profileId } }), outbox);
      return true;
    });
    return written ? findProfile(profileId) : null;
  };

  return {
    findProfile,
    ...prismaClaimRepository(prisma, schema, findProfile, outbox),
    ...prismaPeopleReads(prisma),

    async findOwnership(profileId) {
      const row = await prisma.profile.findUnique({
        where: { profileId },
        select: { profileId: true, userId: true, claims: { ...pendingClaim, select: { userId: true } } },
      });
      return row && { profileId, userId: row.userId, claimantId: row.claims[0]?.userId ?? null };
    },

    async recordOwnerEmailDomain(profileId, userId, emailDomain) {
      // Not an edit of the profile: its updated_at stays.
      const count = await prisma.$executeRaw`
        UPDATE ${table('profiles')} SET owner_email_domain = ${emailDomain}
        WHERE profile_id = ${profileId} AND user_id = ${userId}
          AND owner_email_domain IS DISTINCT FROM ${emailDomain}`;
      return count > 0;
    },

    async ownedOrClaimedBy(userId) {
      const owned = await prisma.profile.findUnique({ where: { userId }, select: { profileId: true } });
      if (owned) return { userId, profileId: owned.profileId, claimPending: false };
      const claim = await prisma.profileClaim.findFirst({
        where: { userId, status: 'pending' },
        select: { profileId: true },
      });
      return claim && { userId, profileId: claim.profileId, claimPending: true };
    },

    async listDirectoryPage(after, limit) {
      const rows = await prisma.profile.findMany({
        include: profileInclude(true),
        omit: personalOmitted,
        orderBy: [{ lastName: 'asc' }, { firstName: 'asc' }, { profileId: 'asc' }],
        ...(after === null ? {} : { cursor: { profileId: after }, skip: 1 }),
        take: limit,
      });
      return listedProfilesOf(prisma, rows);
    },

    async findUnclaimedMatches(firstName, lastName, email) {
      const ids = await prisma.$queryRaw<{ profile_id: number }[]>`
        SELECT p.profile_id FROM ${table('profiles')} p
        WHERE p.user_id IS NULL
          AND lower(p.first_name) = lower(${firstName})
          AND lower(p.last_name) = lower(${lastName})
          AND lower(p.work_email) = lower(${email})
          AND NOT EXISTS (
            SELECT 1 FROM ${table('profile_claims')} c WHERE c.profile_id = p.profile_id AND c.status = 'pending'
          )
        ORDER BY p.profile_id`;
      if (ids.length === 0) return [];
      const rows = await prisma.profile.findMany({
        where: { profileId: { in: ids.map((row) => row.profile_id) } },
        include: profileInclude(false),
        omit: personalOmitted,
        orderBy: { profileId: 'asc' },
      });
      return listedProfilesOf(prisma, rows);
    },

    async createProfile(userId, fields) {
      let created: number | 'claim_waiting';
      try {
        created = await prisma.$transaction(async (tx) => {
          await lockMember(tx, userId);
          if (await hasPendingClaim(tx, userId)) return 'claim_waiting';
          const row = await tx.profile.create({
            data: { ...(profileData(fields) as Prisma.ProfileUncheckedCreateInput), userId },
          });
          await announceProfile(tx, row, outbox);
          await markCreated(tx, row.profileId);
          return row.profileId;
        });
      } catch (error) {
        // The account owns a profile already (one per account, by the unique index).
        if (isUniqueViolation(error)) return { kind: 'owns_one' };
        throw error;
      }
      if (created === 'claim_waiting') return { kind: created };
      const profile = await findProfile(created);
      if (!profile) throw new Error(`profile ${created} vanished after it was created`);
      return { kind: 'created', profile };
    },

    ...prismaHistoryReads(prisma),

    updateProfile: (profileId, owner, changes, curation, editorId) =>
      writeOwned(
        profileId,
        owner,
        {
          ...profileData(changes),
          ...(editorId ? { workEmailChangedAt: new Date(), workEmailChangedBy: editorId } : {}),
        },
        curation,
      ),

    setBio: (profileId, owner, bio, curation) => writeOwned(profileId, owner, { userBio: bio }, curation),

    setPicture: (profileId, owner, url, curation) =>
      prisma.$transaction(async (tx) => {
        // The lock makes "read the previous picture, write the new one" one step, so two uploads at once each
        // remove the picture they replaced.
        const [row] = await tx.$queryRaw<{ profile_picture: string | null }[]>`
          SELECT profile_picture FROM ${table('profiles')}
          WHERE profile_id = ${profileId} AND user_id IS NOT DISTINCT FROM ${owner}
          FOR UPDATE`;
        if (!row) return null;
        const updated = await tx.profile.update({ where: { profileId }, data: { profilePicture: url } });
        await announceProfile(tx, updated, outbox);
        await recordCuration(tx, profileId, curation);
        return { previous: row.profile_picture };
      }),

    async isPictureInUse(url) {
      return (await prisma.profile.count({ where: { profilePicture: url } })) > 0;
    },

    async picturesInUse(urls) {
      const rows = await prisma.profile.findMany({
        where: { profilePicture: { in: [...urls] } },
        select: { profilePicture: true },
        distinct: ['profilePicture'],
      });
      return rows.flatMap((row) => (row.profilePicture === null ? [] : [row.profilePicture]));
    },
  };
}
