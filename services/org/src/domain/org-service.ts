// The org service's rules (spec §3–§6, DESIGN's fixes): who may add and edit organizations, divisions and
// logos, the organization form's rules, names that are names, the Cal-Access ID (its groups and shape, set
// or corrected by contributors only), the list searched and paged through the search index (the product's
// own organization never listed), and the 5-result lookups.
// Knows nothing of gRPC, HTTP or Prisma: it works through its ports.
import { mediaKeyOf, mediaUrl, type ObjectStore, objectKey, type ProcessedImage } from '@rotunda/images';
import {
  CAL_ACCESS_MESSAGES,
  hasCalAccessId,
  IMAGE_MESSAGES,
  isCalAccessId,
  NAME_LABELS,
  nameProblem,
  requiredFieldsMessage,
} from '@rotunda/rules';
import {
  MAX_RESULT_WINDOW,
  type RebuildOutcome,
  type RebuildSource,
  type SearchDocument,
  type SearchIndex,
  storedCodec,
  syncIndex,
} from '@rotunda/search';
import {
  ACCESS_MESSAGES,
  type Caller,
  DomainError,
  fieldChanges,
  invalidArgument,
  isContributor,
  notFound,
  permissionDenied,
  requireContributor,
  requireMember,
} from '@rotunda/service-kit';
import { type Curation, createHistoryReader } from './history.ts';
import {
  type Division,
  type DivisionFields,
  GROUPS,
  type Group,
  type Organization,
  type OrganizationFields,
  type OrganizationPage,
} from './organization.ts';
import type { OrganizationRepository } from './ports.ts';
import {
  cleanDivisionFields,
  cleanListedEmailDomains,
  cleanOrganizationFields,
  cleanText,
  LABELS,
  LIMITS,
  requireNameAndAddress,
  searchWords,
} from './rules.ts';

export const MESSAGES = {
  ...ACCESS_MESSAGES,
  organizationNotFound: 'Organization not found',
  calAccessGroups: CAL_ACCESS_MESSAGES.groups,
  calAccessShape: CAL_ACCESS_MESSAGES.shape,
  calAccessContributorsOnly: CAL_ACCESS_MESSAGES.contributorsOnly,
  unknownGroup: (name: string) =>
    `Unknown type of organization "${name}". Choose one of: ${GROUPS.map((g) => g.groupName).join(', ')}.`,
  nameTaken: (name: string) => `Another organization is already named "${name}".`,
  noImage: 'Please select an image to upload.',
} as const;

/** Page sizes of the organization list (spec §9: 30 at first, 30 more at a time). */
export const PAGE = { default: 30, max: 100 } as const;
/** Autocomplete lists are capped at 5 (spec §9). */
export const LOOKUP_LIMIT = 5;
/** The largest upload the service takes before resizing; the resized result must fit 5,242,880 bytes. */
export const MAX_LOGO_UPLOAD_BYTES = 10 * 1024 * 1024;
const DEFAULT_DIVISION_TYPE = 'Division';
const REINDEX_BATCH = 500;

/**
 * The search index's fields for organizations: text = name; keywords = group, hidden; sort = name. Each document
 * also stores the whole organization, so a list page is answered from the index alone.
 */
export const ORGANIZATION_INDEX = {
  textFields: ['name'],
  keywordFields: ['group', 'hidden'],
  sortFields: [{ name: 'name', type: 'text' as const }],
  stored: true,
};

/** Each document stores its organization, so a list page needs no read of the table; bumped when it changes shape. */
const STORED_ORGANIZATION = storedCodec<Organization>(1);

export function searchDocumentOf(organization: Organization): SearchDocument {
  return {
    id: String(organization.organizationId),
    text: { name: organization.organizationName },
    keywords: { group: [organization.groupName], hidden: [String(organization.hidden)] },
    // Lower-cased so the list reads alphabetically whatever the capitals ('eCivis' next to 'East Bay …').
    sort: { name: organization.organizationName.toLowerCase() },
    stored: STORED_ORGANIZATION.encode(organization),
  };
}

export interface OrgServiceDependencies {
  repository: OrganizationRepository;
  index: SearchIndex;
  /** Sniffs, bounds, orients, strips and resizes an upload (@rotunda/images processImage). */
  processImage: (input: Buffer) => Promise<ProcessedImage>;
  store: Pick<ObjectStore, 'put' | 'remove'>;
  logger: { warn(obj: object, msg: string): void };
}

export interface OrganizationInput {
  organizationName?: string | undefined;
  /** Contributors' edit only: replaces the listed email domains; absent keeps them. */
  emailDomains?: readonly string[] | undefined;
  fields: Partial<Record<keyof OrganizationFields, string | null>>;
}

export interface NewOrganizationInput extends OrganizationInput {
  groupType: string;
}

export interface NewDivisionInput {
  organizationId: number;
  divisionName: string;
  divisionType?: string | undefined;
  fields: Partial<Record<keyof DivisionFields, string | null>>;
}

export interface SearchInput {
  text: string;
  group: string;
  offset: number;
  limit: number;
}

/** The group by name, ignoring case and outer spaces. */
function groupNamed(name: string): Group | undefined {
  const wanted = name.trim().toLowerCase();
  return GROUPS.find((group) => group.groupName.toLowerCase() === wanted);
}

/** A name that is not one ('0', '1e+308', '----') is refused; a blank one is the required-fields rule's. */
function checkName(label: string, name: string | null | undefined) {
  const problem = nameProblem(label, name);
  if (problem) throw invalidArgument(problem);
}

/**
 * A Cal-Access ID is given only by a contributor (spec §6: the lobbying filer id is theirs to see and edit),
 * only for its groups, and only as a filer number. Blank (clearing it, or nothing to set) needs no check.
 */
function checkCalAccessId(caller: Caller, groupName: string, lobbyFilerId: string | null | undefined) {
  if (!lobbyFilerId) return;
  if (!isContributor(caller)) throw permissionDenied(MESSAGES.calAccessContributorsOnly);
  if (!hasCalAccessId(groupName)) throw invalidArgument(MESSAGES.calAccessGroups);
  if (!isCalAccessId(lobbyFilerId)) throw invalidArgument(MESSAGES.calAccessShape);
}

export function createOrgService({ repository, index, processImage, store, logger }: OrgServiceDependencies) {
  const getOrThrow = async (organizationId: number) => {
    const organization =
      Number.isSafeInteger(organizationId) && organizationId > 0
        ? await repository.findById(organizationId)
        : null;
    if (!organization) throw notFound(MESSAGES.organizationNotFound);
    return organization;
  };

  /** A page's organizations as the index stored them; any it stored none of are read from the table. */
  const pageOrganizations = (ids: string[], stored: (string | null)[] | undefined) =>
    STORED_ORGANIZATION.page(
      ids,
      stored,
      async (missing) =>
        new Map(
          (await repository.findByIds(missing.map(Number))).map((row) => [String(row.organizationId), row]),
        ),
    );

  /** What a rebuild reads: every organization a batch at a time, and the current ones of ids written meanwhile. */
  const indexSource: RebuildSource = {
    eachPage: (handle) =>
      repository.forEachBatch(REINDEX_BATCH, (batch) => handle(batch.map(searchDocumentOf))),
    documents: async (ids) =>
      (await repository.findByIds(ids.map(Number).filter(Number.isSafeInteger))).map(searchDocumentOf),
  };

  /** Every write that changes an organization rewrites its document: the list shows what the index stored. */
  const reindexOne = (organization: Organization) => index.upsert([searchDocumentOf(organization)]);

  return {
    async listGroups(): Promise<Group[]> {
      return repository.listGroups();
    },

    /** Every listed organization, for the list call without paging (spec §7 as built). */
    async listOrganizations(): Promise<Organization[]> {
      return repository.listVisible();
    },

    async searchOrganizations(input: SearchInput): Promise<OrganizationPage> {
      const words = searchWords(input.text);
      const groupName = input.group.trim();
      const group = groupName ? groupNamed(groupName) : undefined;
      if (groupName && !group) throw invalidArgument(MESSAGES.unknownGroup(groupName));
      const limit = input.limit > 0 ? Math.min(Math.floor(input.limit), PAGE.max) : PAGE.default;
      const offset = Math.max(0, Math.floor(input.offset));
      if (offset + limit > MAX_RESULT_WINDOW)
        throw invalidArgument(
          `The list goes at most ${MAX_RESULT_WINDOW} organizations deep; search to narrow it.`,
        );
      const { ids, total, stored } = await index.search({
        text: words.join(' '),
        ...(group ? { filters: { group: group.groupName } } : {}),
        exclude: { hidden: ['true'] },
        sort: [{ field: 'name', direction: 'asc' }],
        offset,
        limit,
        withStored: true,
      });
      return { organizations: await pageOrganizations(ids, stored), total };
    },

    async getOrganization(organizationId: number) {
      const organization = await getOrThrow(organizationId);
      return { organization, divisions: await repository.divisionsOf(organizationId) };
    },

    /**
     * Any member: the profile flow adds the organization a new job is at (spec §7 add-organization). Its form
     * has no Cal-Access ID, so a member sending one is refused rather than silently ignored; a contributor may
     * give one.
     */
    async addOrganization(caller: Caller | undefined, input: NewOrganizationInput) {
      const member = requireMember(caller);
      const name = cleanText(input.organizationName, LABELS.organizationName, LIMITS.name);
      const missing = requiredFieldsMessage({
        [LABELS.organizationName]: name,
        [LABELS.groupType]: input.groupType,
      });
      if (missing) throw invalidArgument(missing);
      checkName(NAME_LABELS.organization, name);
      const group = groupNamed(input.groupType);
      if (!group) throw invalidArgument(MESSAGES.unknownGroup(input.groupType.trim()));
      const fields = cleanOrganizationFields(input.fields);
      checkCalAccessId(member, group.groupName, fields.lobbyFilerId);
      const added = { organizationName: name as string, groupType: group.groupName, ...fields };
      const result = await repository.addUnlessNamed(
        { ...emptyOrganizationFields(), ...fields, organizationName: name as string, groupId: group.groupId },
        curation(member, 'organization_created', fieldChanges({}, added)),
      );
      if (result.created) await reindexOne(result.organization);
      return result;
    },

    /**
     * Contributors only (spec §6); the edit form's rules again, whatever the browser enforced. The Cal-Access
     * ID may be set, corrected or cleared here; not sending it keeps it.
     */
    async updateOrganization(
      caller: Caller | undefined,
      organizationId: number,
      input: OrganizationInput,
    ): Promise<Organization> {
      const contributor = requireContributor(caller);
      const current = await getOrThrow(organizationId);
      const name = cleanText(input.organizationName, LABELS.organizationName, LIMITS.name);
      const fields = {
        ...cleanOrganizationFields(input.fields),
        ...cleanListedEmailDomains(input.emailDomains),
      };
      requireNameAndAddress(
        name === undefined ? current.organizationName : name,
        fields.streetAddress === undefined ? current.streetAddress : fields.streetAddress,
      );
      checkName(NAME_LABELS.organization, name);
      checkCalAccessId(contributor, current.groupName, fields.lobbyFilerId);

      const renamed = name && name !== current.organizationName ? name : undefined;
      if (renamed && (await repository.findOtherNamed(renamed, organizationId)))
        throw new DomainError('already_exists', MESSAGES.nameTaken(renamed));

      const changes = { ...fields, ...(renamed ? { organizationName: renamed } : {}) };
      const updated = await repository.update(
        organizationId,
        changes,
        curation(contributor, 'organization_edited', fieldChanges(current, changes)),
      );
      if (!updated) throw notFound(MESSAGES.organizationNotFound);
      // At once, so the list finds a renamed organization by its new name on the next keystroke, and its card
      // shows the new address or phone.
      await reindexOne(updated);
      return updated;
    },

    /**
     * Contributors only: the upload is checked and resized (spec §5 image upload), written under a new
     * server-made key, and the organization points at it; the replaced logo's object is removed.
     */
    async setLogo(caller: Caller | undefined, organizationId: number, image: Buffer): Promise<string> {
      const contributor = requireContributor(caller);
      if (image.length === 0) throw invalidArgument(MESSAGES.noImage);
      if (image.length > MAX_LOGO_UPLOAD_BYTES) throw invalidArgument(IMAGE_MESSAGES.tooLarge);
      const current = await getOrThrow(organizationId);
      const processed = await processImage(image);
      const key = objectKey('logos', processed.extension);
      await store.put(key, processed.data, processed.contentType);
      const url = mediaUrl(key);
      const set = await repository.setLogo(
        organizationId,
        url,
        curation(contributor, 'logo_changed', fieldChanges(current, { logo: url })),
      );
      if (!set) {
        await removeQuietly(key);
        throw notFound(MESSAGES.organizationNotFound);
      }
      await reindexOne(await getOrThrow(organizationId));
      const previous = set.previous ? mediaKeyOf(set.previous) : null;
      if (previous && previous !== key) await removeQuietly(previous);
      return url;
    },

    /** Autocomplete (spec §4): every word in the name, any case, at most 5, by name. */
    async findOrganizationsByName(name: string): Promise<Organization[]> {
      const words = searchWords(name);
      if (words.length === 0) return [];
      const { ids, stored } = await index.search({
        text: words.join(' '),
        sort: [{ field: 'name', direction: 'asc' }],
        offset: 0,
        limit: LOOKUP_LIMIT,
        withStored: true,
      });
      return pageOrganizations(ids, stored);
    },

    async findDivisionsByName(name: string): Promise<Division[]> {
      const words = searchWords(name);
      if (words.length === 0) return [];
      return repository.findDivisionsByWords(words, LOOKUP_LIMIT);
    },

    /** Any member: the profile flow adds the office or division a job is at. */
    async addDivision(caller: Caller | undefined, input: NewDivisionInput) {
      const member = requireMember(caller);
      const divisionName = cleanText(input.divisionName, NAME_LABELS.division, LIMITS.name);
      const missing = requiredFieldsMessage({ [NAME_LABELS.division]: divisionName });
      if (missing) throw invalidArgument(missing);
      checkName(NAME_LABELS.division, divisionName);
      const divisionType = cleanText(input.divisionType, 'Division Type', 64) ?? DEFAULT_DIVISION_TYPE;
      const fields = cleanDivisionFields(input.fields);
      await getOrThrow(input.organizationId);
      const division = { divisionName: divisionName as string, divisionType, ...fields };
      return repository.addDivisionUnlessNamed(
        { ...division, organizationId: input.organizationId },
        curation(member, 'division_added', fieldChanges({}, division)),
      );
    },

    async listDivisions(organizationId: number): Promise<Division[]> {
      await getOrThrow(organizationId);
      return repository.divisionsOf(organizationId);
    },

    exportNames: () => repository.exportNames(),

    /** Contributors only: the organization's curation history, newest first. */
    organizationHistory: createHistoryReader(
      repository,
      async (organizationId) => (await repository.findById(organizationId)) !== null,
      MESSAGES.organizationNotFound,
    ),

    /**
     * Brings the search index in step when a replica starts: rebuilt into a new generation when it was built for
     * another definition or does not hold as many organizations as the table, by whichever replica takes the lock
     * (the others serve the live index meanwhile). Answers how many were indexed (0 when it was in step, or when
     * another replica is rebuilding it).
     */
    async syncSearchIndex(): Promise<number> {
      const result = await syncIndex(index, { source: indexSource, count: () => repository.count() });
      return result.outcome === 'rebuilt' ? result.documents : 0;
    },

    reindexAll,
  };

  /**
   * Rebuilds the index from the table whatever it holds (the operator's `reindex`): a new generation, switched to
   * at once, searches answering from the old one meanwhile. `rebuilt: false` when another process is rebuilding it.
   */
  function reindexAll(): Promise<RebuildOutcome> {
    return index.rebuild(indexSource);
  }

  async function removeQuietly(key: string) {
    try {
      await store.remove(key);
    } catch (error) {
      // An orphaned object costs a little storage; failing the upload for it would cost the member's edit.
      logger.warn(
        { key, err: error instanceof Error ? error.message : String(error) },
        'org: logo not removed',
      );
    }
  }
}

export type OrgService = ReturnType<typeof createOrgService>;

/**
 * Every change to an organization is curation: nobody owns one, so its history names whoever made each change
 * (contributors' edits and logos; members adding an organization or a division from the job form).
 */
function curation(caller: Caller, action: Curation['action'], changes: Curation['changes']): Curation {
  return { actorUserId: caller.userId, action, changes };
}

export function emptyOrganizationFields(): OrganizationFields {
  return {
    streetAddress: null,
    suiteNumber: null,
    city: null,
    state: null,
    zipCode: null,
    website: null,
    mainPhone: null,
    lobbyFilerId: null,
    linkedinUrl: null,
    facebookUrl: null,
    youtubeUrl: null,
    threadsUrl: null,
    twitterUrl: null,
    instagramUrl: null,
    tiktokUrl: null,
    blueskyUrl: null,
  };
}
