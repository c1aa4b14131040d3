// The read copies of the org service's organizations and divisions in the profile schema (ADR 0012). Whole
// copies arrive as thousands of rows, so each table is upserted in one statement from arrays.
import { DIVISION_FIELD_NAMES, organizationFieldKey } from '@rotunda/rules';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { DivisionRef, OrganizationRef } from '../domain/model.ts';
import type { OrgCopyRepository } from '../domain/ports.ts';
import { tableOf } from './prisma-profile-sql.ts';

export function organizationOf(row: Prisma.OrganizationGetPayload<object>): OrganizationRef {
  return {
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    groupType: row.groupType,
    logo: row.logo,
    emailDomains: row.emailDomains,
  };
}

export function divisionOf({ copiedAt: _copied, ...row }: Prisma.DivisionGetPayload<object>): DivisionRef {
  return row;
}

/** A division's copied fields, DIVISION_FIELDS' rows: the columns bear the rows' (REST) names. */
const DIVISION_COLUMNS = Prisma.raw(DIVISION_FIELD_NAMES.join(', '));
const DIVISION_COLUMNS_UPDATED = Prisma.raw(
  DIVISION_FIELD_NAMES.map((name) => `${name} = EXCLUDED.${name}`).join(',\n'),
);
const divisionFieldArrays = (batch: readonly DivisionRef[]) =>
  Prisma.join(
    DIVISION_FIELD_NAMES.map(
      (name) => Prisma.sql`${batch.map((d) => d[organizationFieldKey(name)])}::text[]`,
    ),
    ',\n',
  );

/** Rows per statement: a few thousand keeps each array parameter small. */
const BATCH = 5000;

function batches<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) result.push(items.slice(i, i + BATCH));
  return result;
}

export function prismaOrgCopy(prisma: PrismaClient, schema: string): OrgCopyRepository {
  const table = tableOf(schema);

  return {
    async upsertOrganizations(organizations) {
      const renamed: number[] = [];
      for (const batch of batches(organizations)) {
        // Every sub-statement sees the table as it was before the insert: the last one finds the rows whose name,
        // group or email domains (what the directory's cards show) changed. Domains travel comma-joined (a domain
        // holds no comma): unnest would flatten an array of arrays.
        const rows = await prisma.$queryRaw<{ id: number }[]>`
          WITH copy (id, name, grp, logo, domains) AS (
            SELECT id, name, grp, logo, string_to_array(domains, ',') FROM unnest(
              ${batch.map((o) => o.organizationId)}::integer[],
              ${batch.map((o) => o.organizationName)}::text[],
              ${batch.map((o) => o.groupType)}::text[],
              ${batch.map((o) => o.logo)}::text[],
              ${batch.map((o) => o.emailDomains.join(','))}::text[]) AS given (id, name, grp, logo, domains)
          ),
          written AS (
            INSERT INTO ${table('organizations')} (organization_id, organization_name, group_type, logo, email_domains, copied_at)
            SELECT id, name, grp, logo, domains, now() FROM copy
            ON CONFLICT (organization_id) DO UPDATE SET
              organization_name = EXCLUDED.organization_name,
              group_type = EXCLUDED.group_type,
              logo = EXCLUDED.logo,
              email_domains = EXCLUDED.email_domains,
              copied_at = EXCLUDED.copied_at
          )
          SELECT held.organization_id AS id
          FROM ${table('organizations')} held JOIN copy ON copy.id = held.organization_id
          WHERE held.organization_name <> copy.name OR held.group_type <> copy.grp
            OR held.email_domains <> copy.domains`;
        renamed.push(...rows.map((row) => row.id));
      }
      return renamed;
    },

    async upsertDivisions(divisions) {
      const renamed: number[] = [];
      for (const batch of batches(divisions)) {
        const renamedHere = await prisma.$queryRaw<{ id: number }[]>`
          SELECT held.division_id AS id
          FROM ${table('divisions')} held
          JOIN unnest(${batch.map((d) => d.divisionId)}::integer[], ${batch.map((d) => d.divisionName)}::text[])
            AS copy (id, name) ON copy.id = held.division_id
          WHERE held.division_name <> copy.name`;
        renamed.push(...renamedHere.map((row) => row.id));
        await prisma.$executeRaw`
          INSERT INTO ${table('divisions')} (division_id, division_name, division_type, active_division,
            organization_id, ${DIVISION_COLUMNS}, copied_at)
          SELECT *, now()
          FROM unnest(
            ${batch.map((d) => d.divisionId)}::integer[],
            ${batch.map((d) => d.divisionName)}::text[],
            ${batch.map((d) => d.divisionType)}::text[],
            ${batch.map((d) => d.activeDivision)}::boolean[],
            ${batch.map((d) => d.organizationId)}::integer[],
            ${divisionFieldArrays(batch)}
          )
          ON CONFLICT (division_id) DO UPDATE SET
            division_name = EXCLUDED.division_name,
            division_type = EXCLUDED.division_type,
            active_division = EXCLUDED.active_division,
            organization_id = EXCLUDED.organization_id,
            ${DIVISION_COLUMNS_UPDATED},
            copied_at = EXCLUDED.copied_at`;
      }
      return renamed;
    },

    async findOrganization(organizationId) {
      const row = await prisma.organization.findUnique({ where: { organizationId } });
      return row ? organizationOf(row) : null;
    },

    async findDivision(divisionId) {
      const row = await prisma.division.findUnique({ where: { divisionId } });
      return row ? divisionOf(row) : null;
    },
  };
}
