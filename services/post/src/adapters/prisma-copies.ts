// The read copies of authors', organizations' and divisions' names (ADR 0012) in the post schema through Prisma:
// authors one by one, telling whether what the search index holds of them changed; the org service's whole export
// in batch upserts (one JSON parameter each).
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { CopyStore } from '../domain/ports.ts';
import type { AuthorCopy } from '../domain/post.ts';
import type { SchemaTables } from './prisma-sql.ts';

/** Rows per statement when the read copies take a whole export. */
const COPY_BATCH = 5000;

/** Issue area ids as the copy keeps them: each once, ascending (so equal sets compare equal). */
const issueIds = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);
const sameIds = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

interface StoredAuthor {
  firstName: string;
  lastName: string;
  issueAreaIds: number[];
}

/** The author's fields as they will be stored: an announcement without issue areas keeps the copy's. */
function authorFields(author: AuthorCopy, stored: StoredAuthor | null) {
  return {
    userId: author.userId,
    firstName: author.firstName,
    lastName: author.lastName,
    issueAreaIds: author.issueAreaIds ? issueIds(author.issueAreaIds) : (stored?.issueAreaIds ?? []),
  };
}

/** Whether what the search index holds of the author (names, issue areas) changes. */
const shownChanged = (stored: StoredAuthor, fields: StoredAuthor) =>
  stored.firstName !== fields.firstName ||
  stored.lastName !== fields.lastName ||
  !sameIds(stored.issueAreaIds, fields.issueAreaIds);

async function inBatches<T>(rows: readonly T[], write: (batch: readonly T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += COPY_BATCH)
    await write(rows.slice(start, start + COPY_BATCH));
}

export function prismaCopyStore(prisma: PrismaClient, { table }: SchemaTables): CopyStore {
  return {
    async saveAuthor(author) {
      const stored = await prisma.author.findUnique({ where: { profileId: author.profileId } });
      const fields = authorFields(author, stored);
      await prisma.author.upsert({
        where: { profileId: author.profileId },
        create: { profileId: author.profileId, ...fields },
        update: fields,
      });
      return stored !== null && shownChanged(stored, fields);
    },

    async updateKnownAuthors(authors) {
      if (authors.length === 0) return [];
      const known = new Map(
        (
          await prisma.author.findMany({
            where: { profileId: { in: authors.map((author) => author.profileId) } },
          })
        ).map((row) => [row.profileId, row]),
      );
      const pending: { profileId: number; shown: boolean }[] = [];
      const writes = [];
      for (const author of authors) {
        const stored = known.get(author.profileId);
        if (!stored) continue;
        const fields = authorFields(author, stored);
        const shown = shownChanged(stored, fields);
        if (!shown && stored.userId === author.userId) continue;
        pending.push({ profileId: author.profileId, shown });
        // updateMany: an author whose account was deleted since the read above is simply gone, not an error
        // that would roll back the other authors' names with it.
        writes.push(prisma.author.updateMany({ where: { profileId: author.profileId }, data: fields }));
      }
      const written = writes.length > 0 ? await prisma.$transaction(writes) : [];
      return pending
        .filter((author, i) => author.shown && (written[i]?.count ?? 0) > 0)
        .map((author) => author.profileId);
    },

    async authorIds() {
      const rows = await prisma.author.findMany({
        select: { profileId: true },
        orderBy: { profileId: 'asc' },
      });
      return rows.map((row) => row.profileId);
    },

    authorsByIds: (profileIds) =>
      prisma.author.findMany({
        where: { profileId: { in: [...profileIds] } },
        select: { profileId: true, firstName: true, lastName: true, userId: true },
      }),

    saveOrganizations: (organizations) =>
      inBatches(organizations, async (batch) => {
        const rows = batch.map((organization) => ({
          organization_id: organization.organizationId,
          organization_name: organization.organizationName,
        }));
        await prisma.$executeRaw`
          INSERT INTO ${table('organizations')} (organization_id, organization_name)
          SELECT organization_id, organization_name
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r (organization_id integer, organization_name text)
          ON CONFLICT (organization_id) DO UPDATE SET organization_name = EXCLUDED.organization_name
          WHERE ${table('organizations')}.organization_name IS DISTINCT FROM EXCLUDED.organization_name`;
      }),

    saveDivisions: (divisions) =>
      inBatches(divisions, async (batch) => {
        const rows = batch.map((division) => ({
          division_id: division.divisionId,
          division_name: division.divisionName,
          organization_id: division.organizationId,
        }));
        await prisma.$executeRaw`
          INSERT INTO ${table('divisions')} (division_id, division_name, organization_id)
          SELECT division_id, division_name, organization_id
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            AS r (division_id integer, division_name text, organization_id integer)
          ON CONFLICT (division_id) DO UPDATE
            SET division_name = EXCLUDED.division_name, organization_id = EXCLUDED.organization_id
          WHERE (${table('divisions')}.division_name, ${table('divisions')}.organization_id)
            IS DISTINCT FROM (EXCLUDED.division_name, EXCLUDED.organization_id)`;
      }),
  };
}
