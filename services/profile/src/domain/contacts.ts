// Work contacts members take away (ADR 0031): a directory search's people as the rows of a spreadsheet (at
// most 5,000, in the directory's order) and one person's contact card. A contact holds only what a colleague
// list already shows: names, the latest current job's title, organization and division, the work email and
// the office phone; never the personal email, mobile phone or birthday, which the Contact type and its
// repository do not have. Knows nothing of gRPC, HTTP or Prisma.
import { type Caller, DomainError, notFound, requireMember } from '@rotunda/service-kit';
import { MESSAGES, validId } from './access.ts';
import { checkFilters, type DirectoryFilters, type PeopleDirectory } from './directory.ts';
import type { DirectoryQuota } from './ports.ts';

/**
 * Rows of one export, and how many exports a member may make in a window. Exports are counted with the whole
 * directory's downloads (one allowance of bulk downloads per member, shared by every replica): an export is
 * refused once 10 downloads of either kind were made in the 10 minutes.
 */
export const EXPORT_LIMIT = { rows: 5000, downloads: 10, windowSeconds: 600 } as const;
/** Contacts read from the tables per query while an export streams out. */
const EXPORT_BATCH = 500;

export const CONTACT_MESSAGES = {
  tooManyExports: (seconds: number) => `Too many directory downloads. Try again in ${seconds} seconds.`,
} as const;

/** One person's work contact, from their latest current job (null: none given, or no current job). */
export interface Contact {
  profileId: number;
  firstName: string;
  lastName: string;
  title: string | null;
  organizationName: string | null;
  divisionName: string | null;
  workEmail: string;
  officePhone: string | null;
}

export interface ContactRepository {
  /** The contacts of these profiles, in the order given; unknown ids are left out. */
  contacts(profileIds: readonly number[]): Promise<Contact[]>;
}

export function createContacts({
  directory,
  contacts,
  quota,
  limit = EXPORT_LIMIT,
}: {
  directory: Pick<PeopleDirectory, 'matchingIds'>;
  contacts: ContactRepository;
  quota: DirectoryQuota;
  limit?: { rows: number; downloads: number; windowSeconds: number };
}) {
  return {
    /**
     * Everyone the directory search selects, up to `limit.rows`, in the directory's order, a batch at a time.
     * Bad filters are refused before the export is counted; past the allowance, RESOURCE_EXHAUSTED says when to
     * come back.
     */
    async *exportSearch(caller: Caller | undefined, input: DirectoryFilters): AsyncGenerator<Contact> {
      const member = requireMember(caller);
      const filters = checkFilters(input);
      const wait = await quota.take(member.userId, limit);
      if (wait > 0) throw new DomainError('resource_exhausted', CONTACT_MESSAGES.tooManyExports(wait));
      const ids = await directory.matchingIds(filters, limit.rows);
      for (let i = 0; i < ids.length; i += EXPORT_BATCH)
        yield* await contacts.contacts(ids.slice(i, i + EXPORT_BATCH));
    },

    /** One person's contact card; NOT_FOUND as the profile page. */
    async contactCard(caller: Caller | undefined, profileId: number): Promise<Contact> {
      requireMember(caller);
      const [contact] = validId(profileId) ? await contacts.contacts([profileId]) : [];
      if (!contact) throw notFound(MESSAGES.profileNotFound);
      return contact;
    },
  };
}

export type Contacts = ReturnType<typeof createContacts>;
