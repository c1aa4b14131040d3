// The org service's rules for organizations and divisions (docs/product.md#3-entities-and-their-fields to
// #6-roles-and-permissions, ADR 0037): who may add and edit organizations, divisions and logos, the
// organization form's rules, names that are names (composed, nothing unseen, never reading like another
// organization's), the Cal-Access ID set or corrected by contributors only, a website that counts for the
// Verified employer badge only once a contributor set or confirmed it, each write's curation history, and the
// 5-result division lookup. The list and the organization lookups are the search index's
// (organization-search.ts). Knows nothing of gRPC, HTTP or Prisma: it works through its ports.
import {
  mediaKeyOf,
  mediaUrl,
  type ObjectStore,
  objectKey,
  type ProcessedImage,
  removeQuietly,
} from '@rotunda/images';
import {
  composedName,
  type DivisionFieldValues,
  IMAGE_MESSAGES,
  NAME_LABELS,
  ORGANIZATION_FIELD_NAMES,
  type OrganizationFieldValues,
  organizationExistsMessage,
  organizationFieldKey,
  requiredFieldsMessage,
  singleSpaced,
} from '@rotunda/rules';
import {
  type Caller,
  createHistoryReader,
  DomainError,
  fieldChanges,
  invalidArgument,
  isContributor,
  notFound,
  requireContributor,
  requireMember,
} from '@rotunda/service-kit';
import { checkCalAccessId, checkName, curation, groupNamed, MESSAGES } from './access.ts';
import type { Division, Group, Organization } from './organization.ts';
import { LOOKUP_LIMIT, type OrganizationSearch } from './organization-search.ts';
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

/** The largest upload the service takes before resizing; the resized result must fit 5,242,880 bytes. */
export const MAX_LOGO_UPLOAD_BYTES = 10 * 1024 * 1024;
/** The longest page of organizations, and of divisions, one ExportNames call answers. */
export const EXPORT_NAMES_MAX_LIMIT = 5000;
const DEFAULT_DIVISION_TYPE = 'Division';

/** A name as typed, composed; undefined (not sent) and null (blank) kept. */
const nameOf = (value: string | null | undefined, label: string) => {
  const name = cleanText(value, label, LIMITS.name);
  return name ? composedName(name) : name;
};

/** Spelled the same but for case and spacing: the job form's retry or a member typing a listed name. */
const sameSpelling = (a: string, b: string) =>
  singleSpaced(a).toLowerCase() === singleSpaced(b).toLowerCase();

const nameTaken = (existing: Organization) =>
  new DomainError('already_exists', organizationExistsMessage(existing.organizationName));

/**
 * Who confirms the website a write sends: a contributor sending one confirms it (the form shows it to them),
 * clearing it clears the confirmation, and a member's website waits for a contributor.
 */
function websiteConfirmation(caller: Caller, website: string | null | undefined) {
  if (website === undefined) return {};
  return { websiteConfirmedBy: website && isContributor(caller) ? caller.userId : null };
}

export interface OrgServiceDependencies {
  repository: OrganizationRepository;
  /** The list's index: told of every write, and what the list and organization lookups answer from. */
  search: OrganizationSearch;
  /** Sniffs, bounds, orients, strips and resizes an upload (@rotunda/images processImage). */
  processImage: (input: Buffer) => Promise<ProcessedImage>;
  store: Pick<ObjectStore, 'put' | 'remove'>;
  logger: { warn(obj: object, msg: string): void };
}

export interface OrganizationInput {
  organizationName?: string | undefined;
  /** Contributors' edit only: replaces the listed email domains; absent keeps them. */
  emailDomains?: readonly string[] | undefined;
  fields: Partial<Record<keyof OrganizationFieldValues, string | null>>;
}

export interface NewOrganizationInput extends OrganizationInput {
  groupType: string;
}

export interface NewDivisionInput {
  organizationId: number;
  divisionName: string;
  divisionType?: string | undefined;
  fields: Partial<Record<keyof DivisionFieldValues, string | null>>;
}

export function createOrgService({
  repository,
  search,
  processImage,
  store,
  logger,
}: OrgServiceDependencies) {
  const getOrThrow = async (organizationId: number) => {
    const organization =
      Number.isSafeInteger(organizationId) && organizationId > 0
        ? await repository.findById(organizationId)
        : null;
    if (!organization) throw notFound(MESSAGES.organizationNotFound);
    return organization;
  };

  return {
    async listGroups(): Promise<Group[]> {
      return repository.listGroups();
    },

    /**
     * Every listed organization, for the list call without paging (docs/product.md#7-the-calls-it-makes as
     * built).
     */
    async listOrganizations(): Promise<Organization[]> {
      return repository.listVisible();
    },

    searchOrganizations: search.searchOrganizations,

    async getOrganization(organizationId: number) {
      const organization = await getOrThrow(organizationId);
      return { organization, divisions: await repository.divisionsOf(organizationId) };
    },

    /**
     * Any member: the profile flow adds the organization a new job is at
     * (docs/product.md#7-the-calls-it-makes add-organization). Its form has no Cal-Access ID, so a member
     * sending one is refused rather than silently ignored; a contributor may give one.
     */
    async addOrganization(caller: Caller | undefined, input: NewOrganizationInput) {
      const member = requireMember(caller);
      const name = nameOf(input.organizationName, LABELS.organizationName);
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
      const confirmation = websiteConfirmation(member, fields.website);
      const result = await repository.addUnlessNamed(
        {
          ...emptyOrganizationFields(),
          ...fields,
          ...confirmation,
          organizationName: name as string,
          groupId: group.groupId,
        },
        curation(
          member,
          'organization_created',
          fieldChanges({}, { ...added, websiteConfirmed: !!confirmation.websiteConfirmedBy || undefined }),
        ),
      );
      // The same name again is answered with the organization (the job form's retry); one that only reads like
      // it (accents, unseen characters) is refused with the existing one named, for the member to choose it.
      if (!result.created && !sameSpelling(result.organization.organizationName, name as string))
        throw nameTaken(result.organization);
      if (result.created) await search.organizationChanged(result.organization);
      return result;
    },

    /**
     * Contributors only (docs/product.md#6-roles-and-permissions); the edit form's rules again, whatever the
     * browser enforced. The Cal-Access ID may be set, corrected or cleared here; not sending it keeps it.
     */
    async updateOrganization(
      caller: Caller | undefined,
      organizationId: number,
      input: OrganizationInput,
    ): Promise<Organization> {
      const contributor = requireContributor(caller);
      const current = await getOrThrow(organizationId);
      const name = nameOf(input.organizationName, LABELS.organizationName);
      const fields = {
        ...cleanOrganizationFields(input.fields),
        ...cleanListedEmailDomains(input.emailDomains),
      };
      const confirmation = websiteConfirmation(contributor, fields.website);
      requireNameAndAddress(
        name === undefined ? current.organizationName : name,
        fields.streetAddress === undefined ? current.streetAddress : fields.streetAddress,
      );
      checkName(NAME_LABELS.organization, name);
      checkCalAccessId(contributor, current.groupName, fields.lobbyFilerId);

      const renamed = name && name !== current.organizationName ? name : undefined;
      const other = renamed ? await repository.findOtherNamed(renamed, organizationId) : null;
      if (other) throw nameTaken(other);

      const changes = { ...fields, ...confirmation, ...(renamed ? { organizationName: renamed } : {}) };
      const { websiteConfirmedBy, ...shown } = changes;
      const updated = await repository.update(
        organizationId,
        changes,
        curation(
          contributor,
          'organization_edited',
          fieldChanges(
            { ...current, websiteConfirmed: !!current.websiteConfirmedBy },
            {
              ...shown,
              websiteConfirmed: websiteConfirmedBy === undefined ? undefined : !!websiteConfirmedBy,
            },
          ),
        ),
      );
      if (updated === 'name_taken') {
        const taken = renamed ? await repository.findOtherNamed(renamed, organizationId) : null;
        throw taken
          ? nameTaken(taken)
          : new DomainError('already_exists', organizationExistsMessage(name ?? ''));
      }
      if (!updated) throw notFound(MESSAGES.organizationNotFound);
      // At once, so the list finds a renamed organization by its new name on the next keystroke, and its card
      // shows the new address or phone.
      await search.organizationChanged(updated);
      return updated;
    },

    /**
     * Contributors only: the upload is checked and resized (docs/product.md#5-validation-rules image upload),
     * written under a new server-made key, and the organization points at it; the replaced logo's object is
     * removed.
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
        await removeQuietly(store, key, logger, 'org: logo not removed');
        throw notFound(MESSAGES.organizationNotFound);
      }
      await search.organizationChanged(await getOrThrow(organizationId));
      const previous = set.previous ? mediaKeyOf(set.previous) : null;
      if (previous && previous !== key) await removeQuietly(store, previous, logger, 'org: logo not removed');
      return url;
    },

    findOrganizationsByName: search.findOrganizationsByName,

    async findDivisionsByName(name: string): Promise<Division[]> {
      const words = searchWords(name);
      if (words.length === 0) return [];
      return repository.findDivisionsByWords(words, LOOKUP_LIMIT);
    },

    /** Any member: the profile flow adds the office or division a job is at. */
    async addDivision(caller: Caller | undefined, input: NewDivisionInput) {
      const member = requireMember(caller);
      const divisionName = nameOf(input.divisionName, NAME_LABELS.division);
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

    /**
     * One page of the names read copies hold, by id: at most `limit` organizations after `afterOrganizationId`
     * and as many divisions after `afterDivisionId`; a limit of 0 answers every one (the previous release's
     * callers ask that way).
     */
    exportNames(afterOrganizationId: number, afterDivisionId: number, limit: number) {
      if (!Number.isInteger(limit) || limit < 0 || limit > EXPORT_NAMES_MAX_LIMIT)
        throw invalidArgument(MESSAGES.exportLimit(EXPORT_NAMES_MAX_LIMIT));
      return repository.exportNames({
        afterOrganizationId: Math.max(0, afterOrganizationId),
        afterDivisionId: Math.max(0, afterDivisionId),
        limit: limit === 0 ? null : limit,
      });
    },

    /** Contributors only: the organization's curation history, newest first. */
    organizationHistory: createHistoryReader(
      (organizationId, beforeId, limit) => repository.historyOf(organizationId, beforeId, limit),
      async (organizationId) => (await repository.findById(organizationId)) !== null,
      MESSAGES.organizationNotFound,
    ),

    syncSearchIndex: search.syncSearchIndex,
    reindexAll: search.reindexAll,
  };
}

export type OrgService = ReturnType<typeof createOrgService>;

/** An organization with none of the table's fields given. */
export function emptyOrganizationFields(): OrganizationFieldValues {
  return Object.fromEntries(
    ORGANIZATION_FIELD_NAMES.map((name) => [organizationFieldKey(name), null]),
  ) as OrganizationFieldValues;
}
