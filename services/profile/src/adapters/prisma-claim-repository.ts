// Claims of profiles in the profile schema through Prisma: a member's claim recorded under the lock their profile
// creation takes too (one profile or claim per member), and a profile's row lock ordering two claims of it; a
// claim decided once, the claimant made the owner in the same transaction when confirmed and the change announced
// (ADR 0012), with the decision's curation history and the `claim.decided` event the claimant is told of (ADR 0042).

import { recordEvent } from '@rotunda/events';
import { emailDomainOf } from '@rotunda/rules';
import type { SearchOutbox } from '@rotunda/service-kit';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Profile } from '../domain/model.ts';
import type { ProfileRepository } from '../domain/ports.ts';
import { recordCuration } from './prisma-history.ts';
import { claimOf } from './prisma-profile-rows.ts';
import { announceProfile, hasPendingClaim, lockMember, tableOf } from './prisma-profile-sql.ts';
import { PROFILE_EVENTS } from './profile-events.ts';

type ClaimRepository = Pick<
  ProfileRepository,
  'claimProfile' | 'findClaimant' | 'listPendingClaims' | 'decideClaim'
>;

export function prismaClaimRepository(
  prisma: PrismaClient,
  schema: string,
  findProfile: (profileId: number) => Promise<Profile | null>,
  outbox: SearchOutbox,
): ClaimRepository {
  const table = tableOf(schema);
  return {
    async claimProfile(profileId, claimant, confirmsAtOnce, confirmed) {
      const { userId } = claimant;
      const outcome = await prisma.$transaction(async (tx) => {
        await lockMember(tx, userId);
        // The row lock orders claims of one profile (the second finds the first's claim), and holds off an edit
        // of its work email until the claim is made.
        const [target] = await tx.$queryRaw<
          { user_id: string | null; work_email: string; work_email_changed_at: Date | null }[]
        >`
          SELECT user_id, work_email, work_email_changed_at FROM ${table('profiles')}
          WHERE profile_id = ${profileId} FOR UPDATE`;
        if (!target) return 'not_found';
        const ownsOne = (await tx.profile.count({ where: { userId } })) > 0;
        if (ownsOne || (await hasPendingClaim(tx, userId))) return 'owner_has_one';
        const waiting = await tx.profileClaim.count({ where: { profileId, status: 'pending' } });
        if (target.user_id !== null || waiting > 0) return 'taken';
        const confirmNow = confirmsAtOnce({
          workEmail: target.work_email,
          workEmailChangedAt: target.work_email_changed_at,
        });
        await tx.profileClaim.create({
          data: {
            profileId,
            userId,
            claimantFirstName: claimant.firstName,
            claimantLastName: claimant.lastName,
            claimantEmail: claimant.email,
            ...(confirmNow ? { status: 'confirmed', decidedAt: new Date() } : { status: 'pending' }),
          },
        });
        if (confirmNow) {
          await announceProfile(
            tx,
            await tx.profile.update({
              where: { profileId },
              data: { userId, ownerEmailDomain: emailDomainOf(claimant.email) },
            }),
            outbox,
          );
          // A change of owner, like a contributor's confirmation, is in the profile's history.
          await recordCuration(tx, profileId, confirmed);
        }
        return 'claimed';
      });
      if (outcome !== 'claimed') return { kind: outcome };
      const profile = await findProfile(profileId);
      return profile ? { kind: 'claimed', profile } : { kind: 'not_found' };
    },

    async findClaimant(claimId) {
      const claim = await prisma.profileClaim.findUnique({
        where: { claimId },
        select: { userId: true, profile: { select: { workEmailChangedBy: true } } },
      });
      return claim && { userId: claim.userId, workEmailChangedBy: claim.profile.workEmailChangedBy };
    },

    async listPendingClaims() {
      const rows = await prisma.profileClaim.findMany({
        where: { status: 'pending' },
        include: { profile: { select: { firstName: true, lastName: true, workEmail: true } } },
        orderBy: [{ createdAt: 'asc' }, { claimId: 'asc' }],
      });
      return rows.map(({ profile, ...claim }) => ({
        claimId: claim.claimId,
        profileId: claim.profileId,
        userId: claim.userId,
        ...profile,
        createdAt: claim.createdAt,
        claimant: claimOf(claim).claimant,
      }));
    },

    decideClaim: (claimId, { status, giveOwnership }, curation) =>
      prisma.$transaction(async (tx) => {
        const decidedAt = new Date();
        // Only a pending claim changes: of two decisions at once, the second finds it decided.
        const [claim] = await tx.profileClaim.updateManyAndReturn({
          where: { claimId, status: 'pending' },
          data: { status, decidedAt },
          select: { profileId: true, userId: true, claimantEmail: true },
        });
        if (!claim) {
          const exists = await tx.profileClaim.findUnique({ where: { claimId }, select: { claimId: true } });
          return { kind: exists ? 'decided_before' : 'not_found' } as const;
        }
        if (giveOwnership) {
          // A pending claim keeps the profile unowned and every other claim off it, so nobody owns it now.
          const { count } = await tx.profile.updateMany({
            where: { profileId: claim.profileId, userId: null },
            data: { userId: claim.userId, ownerEmailDomain: emailDomainOf(claim.claimantEmail) },
          });
          if (count === 0)
            throw new Error(`profile ${claim.profileId} gained an owner under a pending claim`);
          await announceProfile(
            tx,
            await tx.profile.findUniqueOrThrow({ where: { profileId: claim.profileId } }),
            outbox,
          );
        }
        if (curation) {
          const names = await tx.profileClaim.findUniqueOrThrow({
            where: { claimId },
            select: { claimantFirstName: true, claimantLastName: true },
          });
          await recordCuration(
            tx,
            claim.profileId,
            curation({ firstName: names.claimantFirstName, lastName: names.claimantLastName }),
          );
        }
        // Recorded with the write: a decision that rolls back tells the claimant nothing.
        const shown = await tx.profile.findUniqueOrThrow({
          where: { profileId: claim.profileId },
          select: { firstName: true, lastName: true },
        });
        await recordEvent(tx, PROFILE_EVENTS, {
          topic: 'claim.decided',
          recipient_user_id: claim.userId,
          profile_id: claim.profileId,
          first_name: shown.firstName,
          last_name: shown.lastName,
          decision: status,
        });
        return {
          kind: 'decided',
          claim: { claimId, profileId: claim.profileId, status, decidedAt },
        } as const;
      }),
  };
}
