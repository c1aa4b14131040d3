// Agency sign-in (ADR 0044, Keycloak mode): administrators register an agency's identity provider for its
// email domains; a member whose email is at one of them signs in there, brokered by Keycloak, and comes back
// signed in with Rotunda's own tokens; a logout at the agency ends the Rotunda session through the back
// channel. Knows nothing of gRPC, HTTP, Prisma or Keycloak (the broker port stands for it).
import { createHash, randomBytes } from 'node:crypto';
import {
  AGENCY_LIMITS,
  AGENCY_MESSAGES,
  AGENCY_PROTOCOLS,
  AGENCY_SIGN_IN_MINUTES,
  type AgencyProtocol,
  cleanAgencyDomains,
  emailDomainOf,
  normalizeEmail,
} from '@rotunda/rules';
import { type Caller, DomainError, invalidArgument, notFound, permissionDenied } from '@rotunda/service-kit';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { requireAdmin } from './access-admin.ts';
import { type AuthUser, toAuthUser, tooMany } from './auth-service.ts';
import { addressKeys } from './client-address.ts';
import type {
  AdminActor,
  AdminLog,
  AgencyBroker,
  AgencyEndpoints,
  AgencyRecord,
  AgencySignIns,
  AgencyStore,
  EndedSessions,
  IdentityProvider,
  RateLimit,
  TokenSet,
} from './ports.ts';

/** The admin log's subject for agency changes. */
export const AGENCIES_SUBJECT = 'agencies';

/** OpenID Connect Back-Channel Logout 1.0 §2.4: the event a logout token must carry. */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** A logout token older than this is refused (a replay, or a clock far off). */
const LOGOUT_TOKEN_MAX_AGE_SECONDS = 300;
const CLOCK_TOLERANCE_SECONDS = 30;
const ALIAS_LENGTH = 50;

export const LOGOUT_TOKEN_INVALID = 'The logout token does not verify.';

/** An agency as the admin screen shows it, with what its IT office is given. */
export type AgencyView = AgencyRecord & AgencyEndpoints;

export interface AgencyInput {
  name: string;
  protocol: string;
  domains: readonly string[];
  metadataUrl: string;
  clientId?: string;
  clientSecret?: string;
}

export interface AgenciesDependencies {
  identity: IdentityProvider;
  broker: AgencyBroker;
  store: AgencyStore;
  signIns: AgencySignIns;
  log: AdminLog;
  endedSessions: EndedSessions;
  /** Sign-ins one client (IPv4 address or IPv6 /64) may begin: each keeps a row for ten minutes. */
  startsByAddress: RateLimit;
  /** What a back-channel logout token must name: the realm's issuer and the auth service's client. */
  logoutToken: { issuer: string; audience: string };
}

const isProtocol = (value: string): value is AgencyProtocol =>
  (AGENCY_PROTOCOLS as readonly string[]).includes(value);

const random = () => randomBytes(32).toString('base64url');
const sha256 = (value: string) => createHash('sha256').update(value).digest();

/** Keycloak's alias for the agency: lower-case letters, digits and hyphens from its name. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, ALIAS_LENGTH)
    .replace(/^-+|-+$/g, '');
  return slug || 'agency';
}

/** The domains as stored (lower-case, no '@', no duplicates), or INVALID_ARGUMENT with the first problem. */
function cleanDomains(raw: readonly string[]): string[] {
  const cleaned = cleanAgencyDomains(raw);
  if (cleaned.problem !== undefined) throw invalidArgument(cleaned.problem);
  return cleaned.domains;
}

function cleanUrl(raw: string): string {
  const text = raw.trim();
  if (text.length > AGENCY_LIMITS.url) throw invalidArgument(AGENCY_MESSAGES.badMetadataUrl);
  try {
    const url = new URL(text);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && url.hostname) return url.href;
  } catch {
    // Not a URL: refused below with the same sentence as any other bad address.
  }
  throw invalidArgument(AGENCY_MESSAGES.badMetadataUrl);
}

/** Where Keycloak sends the browser back: the shell's page that finishes the sign-in. */
const callbackOf = (appUrl: string) => `${appUrl.trim().replace(/\/+$/, '')}/agency-sign-in`;

export function createAgencies(deps: AgenciesDependencies) {
  const { identity, broker, store, signIns, log, endedSessions, startsByAddress, logoutToken } = deps;

  const view = (agency: AgencyRecord): AgencyView => ({
    ...agency,
    ...broker.endpoints(agency.alias, agency.protocol),
  });

  async function agencyOf(email: string): Promise<AgencyRecord | null> {
    if (!broker.available) return null;
    const domain = emailDomainOf(normalizeEmail(email));
    return domain ? store.byDomain(domain) : null;
  }

  async function freeAlias(name: string): Promise<string> {
    const base = slugOf(name);
    for (let n = 1; ; n += 1) {
      const alias = n === 1 ? base : `${base}-${n}`;
      if (!(await store.find(alias))) return alias;
    }
  }

  async function validate(input: AgencyInput) {
    const name = input.name.trim().replace(/\s+/g, ' ');
    if (!name) throw invalidArgument(AGENCY_MESSAGES.nameRequired);
    if (name.length > AGENCY_LIMITS.name) throw invalidArgument(AGENCY_MESSAGES.nameTooLong);
    if (!isProtocol(input.protocol)) throw invalidArgument(AGENCY_MESSAGES.unknownProtocol);
    const protocol = input.protocol;
    const domains = cleanDomains(input.domains);
    const metadataUrl = cleanUrl(input.metadataUrl);
    const clientId = protocol === 'oidc' ? (input.clientId ?? '').trim() : '';
    const clientSecret = protocol === 'oidc' ? (input.clientSecret ?? '') : '';
    if (protocol === 'oidc') {
      if (!clientId) throw invalidArgument(AGENCY_MESSAGES.clientIdRequired);
      if (!clientSecret.trim()) throw invalidArgument(AGENCY_MESSAGES.clientSecretRequired);
      if (clientId.length > AGENCY_LIMITS.clientId || clientSecret.length > AGENCY_LIMITS.clientSecret) {
        throw invalidArgument(AGENCY_MESSAGES.clientTooLong);
      }
    }
    for (const domain of domains) {
      const holder = await store.byDomain(domain);
      if (holder) throw invalidArgument(AGENCY_MESSAGES.domainTaken(domain, holder.name));
    }
    return { name, protocol, domains, metadataUrl, clientId, clientSecret };
  }

  async function add(actor: AdminActor, input: AgencyInput): Promise<AgencyView> {
    if (!broker.available) throw new DomainError('failed_precondition', AGENCY_MESSAGES.needsKeycloak);
    const agency = await validate(input);
    const alias = await freeAlias(agency.name);
    await broker.register({ alias, ...agency });
    let stored: Awaited<ReturnType<AgencyStore['add']>>;
    try {
      // The secret went to the broker alone: the store never sees it.
      const { clientSecret: _secret, ...kept } = agency;
      stored = await store.add({ alias, ...kept });
    } catch (error) {
      await broker.unregister(alias);
      throw error;
    }
    if ('taken' in stored) {
      // Another registration won a race for the alias or a domain: this one's provider goes again.
      await broker.unregister(alias);
      if (stored.taken === 'alias')
        throw new DomainError('already_exists', 'Another agency was just added. Try again.');
      const holder = await store.byDomain(stored.taken);
      throw invalidArgument(AGENCY_MESSAGES.domainTaken(stored.taken, holder?.name ?? 'another agency'));
    }
    await log.record({ actor, action: 'add', subject: AGENCIES_SUBJECT, value: alias });
    return view(stored);
  }

  async function remove(actor: AdminActor, alias: string): Promise<void> {
    const agency = await store.find(alias.trim());
    if (!agency) throw notFound(AGENCY_MESSAGES.unknownAgency);
    await broker.unregister(agency.alias);
    // Logged only by the call that removed it (two administrators at once log one removal).
    if (await store.remove(agency.alias)) {
      await log.record({ actor, action: 'remove', subject: AGENCIES_SUBJECT, value: agency.alias });
    }
  }

  return {
    add,
    remove,

    /** The agency that signs in this email's domain (exactly that domain: subdomains are not its). */
    async findAgency(email: string): Promise<{ alias: string; name: string } | null> {
      const agency = await agencyOf(email);
      return agency ? { alias: agency.alias, name: agency.name } : null;
    },

    /** Begins a brokered sign-in: answers where to send the browser. */
    async startSignIn(input: { email: string; appUrl: string; clientIp: string }): Promise<string> {
      const agency = await agencyOf(input.email);
      if (!agency) throw notFound(AGENCY_MESSAGES.noAgencyForEmail);
      const wait = await startsByAddress.attempt(addressKeys(input.clientIp).host);
      if (wait > 0) throw tooMany(wait);
      const state = random();
      const codeVerifier = random();
      const nonce = random();
      const email = normalizeEmail(input.email);
      await signIns.begin(sha256(state).toString('hex'), { codeVerifier, nonce, alias: agency.alias, email });
      return broker.authorizationUrl({
        alias: agency.alias,
        email,
        state,
        nonce,
        codeChallenge: sha256(codeVerifier).toString('base64url'),
        redirectUri: callbackOf(input.appUrl),
      });
    },

    /**
     * Finishes it: the state is used once, the code exchanged, and the account must be linked to that agency and
     * have an email at one of its domains; a refused sign-in leaves no session, nor an account it made.
     */
    async completeSignIn(input: {
      code: string;
      state: string;
      appUrl: string;
    }): Promise<{ user: AuthUser; tokens: TokenSet; firstSignIn: boolean }> {
      const started = input.state
        ? await signIns.take(sha256(input.state).toString('hex'), AGENCY_SIGN_IN_MINUTES * 60)
        : null;
      if (!started || !input.code) throw invalidArgument(AGENCY_MESSAGES.signInExpired);
      const exchanged = await broker.exchangeCode({
        code: input.code,
        codeVerifier: started.codeVerifier,
        redirectUri: callbackOf(input.appUrl),
      });
      if (!exchanged) throw invalidArgument(AGENCY_MESSAGES.signInExpired);
      const { tokens, idToken } = exchanged;
      // The ID token came straight from the broker's token endpoint over the back channel (OIDC Core
      // §3.1.3.7): its claims are the broker's; the nonce ties it to this sign-in.
      const claims = decodeJwt(idToken);
      const userId = typeof claims.sub === 'string' ? claims.sub : '';
      const user = claims.nonce === started.nonce ? await identity.findUserById(userId) : null;
      if (!user) {
        await identity.logout(tokens.refreshToken);
        throw invalidArgument(AGENCY_MESSAGES.signInExpired);
      }
      const createdAt = await identity.createdAt(user.id);
      const firstSignIn = createdAt !== null && createdAt.getTime() >= started.startedAt.getTime();
      const agency = await store.find(started.alias);
      const linked = agency !== null && (await broker.federatedLinks(user.id)).includes(agency.alias);
      const domain = emailDomainOf(user.email);
      const refusal =
        !agency || !linked
          ? AGENCY_MESSAGES.notLinked
          : !domain || !agency.domains.includes(domain)
            ? AGENCY_MESSAGES.emailOutsideAgency(agency.name)
            : null;
      if (refusal) {
        // Its tokens never left this service, so nothing needs to learn that the session ended.
        await identity.logout(tokens.refreshToken);
        if (firstSignIn) await broker.deleteUser(user.id);
        throw permissionDenied(refusal);
      }
      return { user: toAuthUser(user), tokens, firstSignIn };
    },

    /** Verifies a back-channel logout token (OIDC Back-Channel Logout §2.6) and ends the session it names. */
    async backchannelLogout(token: string): Promise<void> {
      let claims: Record<string, unknown>;
      try {
        const keys = createLocalJWKSet((await identity.jwks()) as Parameters<typeof createLocalJWKSet>[0]);
        ({ payload: claims } = await jwtVerify(token, keys, {
          issuer: logoutToken.issuer,
          audience: logoutToken.audience,
          maxTokenAge: LOGOUT_TOKEN_MAX_AGE_SECONDS,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
        }));
      } catch {
        throw invalidArgument(LOGOUT_TOKEN_INVALID);
      }
      const events = claims.events;
      const sid = claims.sid;
      if (
        typeof events !== 'object' ||
        events === null ||
        !(BACKCHANNEL_LOGOUT_EVENT in events) ||
        typeof sid !== 'string' ||
        sid === '' ||
        'nonce' in claims
      ) {
        throw invalidArgument(LOGOUT_TOKEN_INVALID);
      }
      await endedSessions.record([sid]);
    },

    async listAgencies(caller: Caller | undefined): Promise<{ available: boolean; agencies: AgencyView[] }> {
      requireAdmin(caller);
      if (!broker.available) return { available: false, agencies: [] };
      return { available: true, agencies: (await store.list()).map(view) };
    },

    async addAgency(caller: Caller | undefined, input: AgencyInput): Promise<AgencyView> {
      return add(requireAdmin(caller), input);
    },

    async removeAgency(caller: Caller | undefined, alias: string): Promise<void> {
      await remove(requireAdmin(caller), alias);
    },
  };
}

export type Agencies = ReturnType<typeof createAgencies>;
