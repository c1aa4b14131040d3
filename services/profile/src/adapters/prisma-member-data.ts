// One member's data in the profile schema through Prisma (docs/product.md#your-data, ADR 0042): their export
// read as it is stored, owners' issue areas read in keyset batches by user id, and a deleted account
// forgotten in one transaction, the profile's change announced in it (ADR 0012) so the post service's copy of
// authors follows.
import { idempotencyKeyOwner, NO_SEARCH_OUTBOX, type SearchOutbox } from '@rotunda/service-kit';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { PERSONAL_FIELD_KEYS } from '../domain/model.ts';
import type { MemberDataRepository, MemberExport } from '../domain/ports.ts';
import { announceProfile, lockMember, tableOf } from './prisma-profile-sql.ts';

/** 'YYYY-MM-DD' of a DATE column (Prisma reads it as midnight UTC). */
const dayOf = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null);

/** A row's fields with snake_case keys and dates as text, as the export's JSON shows them. */
function exported(row: Record<string, unknown>, days: readonly string[] = []): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
      value instanceof Date ? (days.includes(key) ? dayOf(value) : value.toISOString()) : value,
    ]),
  );
}

export function prismaMemberData(
  prisma: PrismaClient,
  schema: string,
  outbox: SearchOutbox = NO_SEARCH_OUTBOX,
): MemberDataRepository {
  const table = tableOf(schema);
  return {
    async exportOf(userId) {
      const [profile, claims] = await Promise.all([
        prisma.profile.findUnique({
          where: { userId },
          // The profile's own fields only: curation bookkeeping (who changed the work email) is not about them.
          omit: { workEmailChangedBy: true },
          include: {
            jobs: { orderBy: [{ currentJob: 'desc' }, { startDate: 'desc' }, { jobId: 'asc' }] },
            issues: { include: { issueArea: true }, orderBy: { issueId: 'asc' } },
          },
        }),
        prisma.profileClaim.findMany({ where: { userId }, orderBy: { claimId: 'asc' } }),
      ]);
      const organizationIds = [...new Set(profile?.jobs.map((job) => job.organizationId) ?? [])];
      const divisionIds = [...new Set(profile?.jobs.flatMap((job) => job.divisionId ?? []) ?? [])];
      const [organizations, divisions] = await Promise.all([
        prisma.organization.findMany({ where: { organizationId: { in: organizationIds } } }),
        prisma.division.findMany({ where: { divisionId: { in: divisionIds } } }),
      ]);
      const organizationName = new Map(organizations.map((o) => [o.organizationId, o.organizationName]));
      const divisionName = new Map(divisions.map((d) => [d.divisionId, d.divisionName]));
      const document: MemberExport = {
        profile: null,
        jobs: [],
        issue_areas: [],
        claims: claims.map((claim) => ({
          claim_id: claim.claimId,
          profile_id: claim.profileId,
          status: claim.status,
          claimant_first_name: claim.claimantFirstName,
          claimant_last_name: claim.claimantLastName,
          claimant_email: claim.claimantEmail,
          created_at: claim.createdAt.toISOString(),
          decided_at: claim.decidedAt?.toISOString() ?? null,
        })),
      };
      if (!profile) return document;
      const { jobs, issues, ...fields } = profile;
      return {
        ...document,
        profile: exported(fields, ['birthday']),
        jobs: jobs.map((job) => ({
          ...exported(job, ['startDate', 'endDate']),
          organization_name: organizationName.get(job.organizationId) ?? null,
          division_name: job.divisionId === null ? null : (divisionName.get(job.divisionId) ?? null),
        })),
        issue_areas: issues.map((issue) => ({
          issue_id: issue.issueArea.issueId,
          issue_name: issue.issueArea.issueName,
        })),
      };
    },

    async memberIssueAreasAfter(afterUserId, limit) {
      // The unique index on user_id walks owners in order; each batch starts past the last one answered.
      const rows = await prisma.$queryRaw<{ user_id: string; profile_id: number; issue_ids: number[] }[]>`
        SELECT p.user_id, p.profile_id,
          COALESCE(
            (SELECT array_agg(ui.issue_id ORDER BY ui.issue_id) FROM ${table('user_issues')} ui
             WHERE ui.profile_id = p.profile_id),
            '{}'
          ) AS issue_ids
        FROM ${table('profiles')} p
        WHERE p.user_id IS NOT NULL AND p.user_id > ${afterUserId}
        ORDER BY p.user_id
        LIMIT ${limit}`;
      return rows.map((row) => ({
        userId: row.user_id,
        profileId: row.profile_id,
        issueAreaIds: row.issue_ids,
      }));
    },

    forgetMember: (userId) =>
      prisma.$transaction(async (tx) => {
        // The lock a claim and a profile creation take: nothing of the member's lands while it is forgotten.
        await lockMember(tx, userId);
        const owned = await tx.profile.findUnique({ where: { userId } });
        const changed: number[] = [];
        if (owned) {
          const { profileId } = owned;
          const claimed =
            (await tx.profileClaim.count({ where: { profileId, userId, status: 'confirmed' } })) > 0;
          if (claimed) {
            // A profile somebody curated before the member claimed it stays in the directory, nobody's again.
            const unclaimed = await tx.profile.update({
              where: { profileId },
              data: {
                userId: null,
                ownerEmailDomain: null,
                ...Object.fromEntries(PERSONAL_FIELD_KEYS.map((key) => [key, null])),
              },
            });
            await announceProfile(tx, unclaimed, outbox);
          } else {
            // Announced as nobody's before it goes: read copies stop showing it as the member's.
            await announceProfile(tx, { ...owned, userId: null }, outbox);
            await tx.profile.delete({ where: { profileId } });
          }
          changed.push(profileId);
        }
        await tx.profileClaim.deleteMany({ where: { userId } });
        await tx.directoryDownload.deleteMany({ where: { userId } });
        // The answers kept for their creates' Idempotency-Keys hold what they wrote.
        await tx.idempotencyKey.deleteMany({ where: { owner: idempotencyKeyOwner(userId) } });
        return changed;
      }),
  };
}
