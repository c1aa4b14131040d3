// Access administration (docs/product.md#access-administration): administrators (realm role
// 'admin') read and change who may register and grant or take away roles, and every change is logged with who
// made it. The admin command (`npm run admin`) makes its changes through the same rules as the command-line
// actor. Knows nothing of gRPC, HTTP or Prisma.
import {
  ACCESS_LISTS,
  ACCESS_MESSAGES,
  type AccessList,
  ADMIN_LOG_PAGE,
  ADMIN_ROLE,
  ADMIN_ROLES,
  type AdminRole,
  checkAccessValue,
} from '@rotunda/rules';
import {
  type Caller,
  DomainError,
  invalidArgument,
  notFound,
  permissionDenied,
  unauthenticated,
} from '@rotunda/service-kit';
import type {
  AccessListName,
  AccessLists,
  AdminActor,
  AdminLog,
  AdminLogEntry,
  IdentityProvider,
} from './ports.ts';

/** The actor the log names for changes made with `npm run admin`. */
export const COMMAND_LINE_ACTOR: AdminActor = { userId: null, email: 'npm run admin' };

export const ADMIN_MESSAGES = {
  adminsOnly: 'Administrators only',
  loginRequired: 'Please log in.',
  unknownList: `Choose a list: ${ACCESS_LISTS.join(', ')}.`,
  unknownRole: `Choose a role: ${ADMIN_ROLES.join(', ')}.`,
} as const;

const STORED_LIST: Readonly<Record<AccessList, AccessListName>> = {
  domains: 'approved-domain',
  emails: 'approved-email',
  beta_emails: 'beta-email',
};

const isAccessList = (name: string): name is AccessList => (ACCESS_LISTS as readonly string[]).includes(name);
const isAdminRole = (name: string): name is AdminRole => (ADMIN_ROLES as readonly string[]).includes(name);

/** A list's value as stored, or refused with the rule's message. */
function clean(list: AccessList, raw: string): string {
  const checked = checkAccessValue(list, raw);
  if ('problem' in checked) throw invalidArgument(checked.problem);
  return checked.value;
}

export interface AccessListsView {
  domains: string[];
  emails: string[];
  beta_emails: string[];
}

/** The administrator making a change; a visitor is refused UNAUTHENTICATED, anyone else PERMISSION_DENIED. */
export function requireAdmin(caller: Caller | undefined): AdminActor {
  if (!caller) throw unauthenticated(ADMIN_MESSAGES.loginRequired);
  if (!caller.roles.includes(ADMIN_ROLE)) throw permissionDenied(ADMIN_MESSAGES.adminsOnly);
  return { userId: caller.userId, email: caller.email };
}

export function createAccessAdmin(deps: { identity: IdentityProvider; lists: AccessLists; log: AdminLog }) {
  const { identity, lists, log } = deps;

  async function current(): Promise<AccessListsView> {
    const [domains, emails, betaEmails] = await Promise.all([
      lists.approvedDomains(),
      lists.approvedEmails(),
      lists.betaEmails(),
    ]);
    return { domains, emails, beta_emails: betaEmails };
  }

  /**
   * Adds the value to the list or removes it, at once for registration and check-email (they read the lists on
   * every call); logged only when the list changed. Answers the value as stored.
   */
  async function changeList(actor: AdminActor, list: string, value: string, add: boolean): Promise<string> {
    if (!isAccessList(list)) throw invalidArgument(ADMIN_MESSAGES.unknownList);
    const cleaned = clean(list, value);
    const stored = STORED_LIST[list];
    const change = add ? await lists.add(stored, cleaned) : await lists.remove(stored, cleaned);
    if (change.changed) {
      await log.record({ actor, action: add ? 'add' : 'remove', subject: list, value: change.value });
    }
    return change.value;
  }

  /**
   * Grants or takes away the role of the account with this email; it shows in the member's tokens and login
   * answer from their next sign-in (or refresh). Logged only when the account's roles changed.
   */
  async function setRole(actor: AdminActor, email: string, role: string, grant: boolean): Promise<string> {
    if (!isAdminRole(role)) throw invalidArgument(ADMIN_MESSAGES.unknownRole);
    const user = await identity.findUserByEmail(clean('emails', email));
    if (!user) throw notFound(ACCESS_MESSAGES.unknownAccount);
    // An administrator locking themselves out would leave nobody to undo it from the screen.
    if (!grant && role === ADMIN_ROLE && actor.userId === user.id) {
      throw new DomainError('failed_precondition', ACCESS_MESSAGES.ownAdmin);
    }
    if (user.roles.includes(role) === grant) return user.email;
    if (grant) await identity.grantRole(user.id, role);
    else await identity.revokeRole(user.id, role);
    await log.record({ actor, action: grant ? 'grant' : 'revoke', subject: role, value: user.email });
    return user.email;
  }

  return {
    changeList,
    setRole,

    async getAccessLists(caller: Caller | undefined): Promise<AccessListsView> {
      requireAdmin(caller);
      return current();
    },

    /** The lists after the change. */
    async changeAccessList(
      caller: Caller | undefined,
      input: { list: string; value: string; add: boolean },
    ): Promise<AccessListsView> {
      await changeList(requireAdmin(caller), input.list, input.value, input.add);
      return current();
    },

    async setRoleFor(
      caller: Caller | undefined,
      input: { email: string; role: string; grant: boolean },
    ): Promise<void> {
      await setRole(requireAdmin(caller), input.email, input.role, input.grant);
    },

    /** Newest first, older than the entry `before` (0: the newest); `limit` 0 means the default page. */
    async listAdminLog(
      caller: Caller | undefined,
      input: { before: number; limit: number },
    ): Promise<AdminLogEntry[]> {
      requireAdmin(caller);
      const limit = input.limit || ADMIN_LOG_PAGE.default;
      if (!Number.isInteger(limit) || limit < 1 || limit > ADMIN_LOG_PAGE.max) {
        throw invalidArgument(`Ask for 1 to ${ADMIN_LOG_PAGE.max} entries at a time.`);
      }
      if (!Number.isSafeInteger(input.before) || input.before < 0) {
        throw invalidArgument('before must be an entry id.');
      }
      return log.page(input.before, limit);
    },
  };
}

export type AccessAdmin = ReturnType<typeof createAccessAdmin>;
