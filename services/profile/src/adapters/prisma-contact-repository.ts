// Work contacts read from the profile schema in one SQL statement per batch, in the order of the ids given: the
// names, work email and office phone of each profile and its latest current job (as the directory card picks it)
// with the read copies' organization and division names. Selects no personal column, so none can leave.
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { Contact, ContactRepository } from '../domain/contacts.ts';

interface ContactRow {
  profile_id: number;
  first_name: string;
  last_name: string;
  title: string | null;
  organization_name: string | null;
  division_name: string | null;
  work_email: string;
  other_phone: string | null;
}

const contactOf = (row: ContactRow): Contact => ({
  profileId: row.profile_id,
  firstName: row.first_name,
  lastName: row.last_name,
  title: row.title,
  organizationName: row.organization_name,
  divisionName: row.division_name,
  workEmail: row.work_email,
  officePhone: row.other_phone,
});

export function prismaContactRepository(prisma: PrismaClient, schema: string): ContactRepository {
  const table = (name: string) => Prisma.raw(`"${schema}"."${name}"`);
  return {
    async contacts(profileIds) {
      if (profileIds.length === 0) return [];
      const rows = await prisma.$queryRaw<ContactRow[]>`
        SELECT p.profile_id, p.first_name, p.last_name, j.title, o.organization_name, d.division_name,
          p.work_email, p.other_phone
        FROM unnest(${[...profileIds]}::integer[]) WITH ORDINALITY AS wanted (id, position)
        JOIN ${table('profiles')} p ON p.profile_id = wanted.id
        LEFT JOIN LATERAL (
          SELECT jx.title, jx.organization_id, jx.division_id FROM ${table('job_experiences')} jx
          WHERE jx.profile_id = p.profile_id AND jx.current_job
          ORDER BY jx.start_date DESC, jx.job_id DESC
          LIMIT 1
        ) j ON true
        LEFT JOIN ${table('organizations')} o ON o.organization_id = j.organization_id
        LEFT JOIN ${table('divisions')} d ON d.division_id = j.division_id
        ORDER BY wanted.position`;
      return rows.map(contactOf);
    },
  };
}
