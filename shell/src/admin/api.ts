// The access administration calls (docs/product.md#access-administration): who may
// register (three lists), granting and taking away roles, the log of every change, and (Keycloak mode,
// docs/product.md#agency-sign-in) the agencies whose own identity providers sign their staff in. Answers are
// read defensively; the browser checks a value before it is sent with checkAccessValue (@rotunda/rules).
import { ACCESS_LISTS, type AccessList, type AdminRole } from '@rotunda/rules';
import { call } from '@rotunda/ui';

export type AccessLists = Record<AccessList, string[]>;

export interface AdminLogEntry {
  id: number;
  at: string;
  actor: { user_id: string; email: string };
  action: string;
  subject: string;
  value: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((one): one is string => typeof one === 'string') : [];

function listsOf(answer: unknown): AccessLists {
  if (!isRecord(answer)) throw new Error('The access lists did not answer an object');
  return Object.fromEntries(ACCESS_LISTS.map((list) => [list, strings(answer[list])])) as AccessLists;
}

function entryOf(value: unknown): AdminLogEntry | null {
  if (!isRecord(value) || typeof value.id !== 'number' || !isRecord(value.actor)) return null;
  const { at, action, subject } = value;
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) return null;
  if (typeof action !== 'string' || typeof subject !== 'string') return null;
  return {
    id: value.id,
    at,
    actor: {
      user_id: typeof value.actor.user_id === 'string' ? value.actor.user_id : '',
      email: typeof value.actor.email === 'string' ? value.actor.email : '',
    },
    action,
    subject,
    value: typeof value.value === 'string' ? value.value : '',
  };
}

export const fetchAccessLists = async (signal?: AbortSignal) =>
  listsOf(await call('GET', '/api/admin/access', { signal }));

/** Adds (POST) or removes (DELETE) a value; answers the lists after the change. */
export const changeAccessList = async (list: AccessList, value: string, add: boolean) =>
  listsOf(await call(add ? 'POST' : 'DELETE', '/api/admin/access', { body: { list, value } }));

export const setRole = (email: string, role: AdminRole, grant: boolean) =>
  call<unknown>('POST', '/api/admin/roles', { body: { email, role, grant } });

/** One page of the log, newest first; `before` is the id of the oldest entry already shown. */
export async function fetchAdminLog(before: number | null, limit: number, signal?: AbortSignal) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (before !== null) query.set('before', String(before));
  const answer = await call<unknown>('GET', `/api/admin/log?${query}`, { signal });
  if (!Array.isArray(answer)) throw new Error('The admin log did not answer a list');
  return answer.map(entryOf).filter((entry): entry is AdminLogEntry => entry !== null);
}

export type AgencyProtocol = 'oidc' | 'saml';

/** An agency's identity provider as Rotunda keeps it, with the addresses its IT office needs from us. */
export interface Agency {
  alias: string;
  name: string;
  protocol: AgencyProtocol;
  domains: string[];
  metadata_url: string;
  client_id: string;
  redirect_uri: string;
  logout_url: string;
  /** SAML only: our service provider's metadata, for the agency to import. */
  sp_metadata_url: string;
  created_at: string;
}

export interface Agencies {
  /** False with the built-in identity provider: agency sign-in needs Keycloak. */
  available: boolean;
  agencies: Agency[];
}

export interface NewAgency {
  name: string;
  protocol: AgencyProtocol;
  domains: string[];
  metadata_url: string;
  client_id?: string;
  client_secret?: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function agencyOf(value: unknown): Agency | null {
  if (!isRecord(value) || typeof value.alias !== 'string' || typeof value.name !== 'string') return null;
  if (value.protocol !== 'oidc' && value.protocol !== 'saml') return null;
  return {
    alias: value.alias,
    name: value.name,
    protocol: value.protocol,
    domains: strings(value.domains),
    metadata_url: text(value.metadata_url),
    client_id: text(value.client_id),
    redirect_uri: text(value.redirect_uri),
    logout_url: text(value.logout_url),
    sp_metadata_url: text(value.sp_metadata_url),
    created_at: text(value.created_at),
  };
}

export async function fetchAgencies(signal?: AbortSignal): Promise<Agencies> {
  const answer = await call<unknown>('GET', '/api/admin/agencies', { signal });
  if (!isRecord(answer)) throw new Error('The agencies did not answer an object');
  const agencies = Array.isArray(answer.agencies) ? answer.agencies : [];
  return {
    available: answer.available === true,
    agencies: agencies.map(agencyOf).filter((agency): agency is Agency => agency !== null),
  };
}

/** Registers an agency's identity provider; answers it as kept. */
export async function addAgency(agency: NewAgency): Promise<Agency> {
  const kept = agencyOf(await call<unknown>('POST', '/api/admin/agencies', { body: agency }));
  if (!kept) throw new Error('The new agency did not answer an agency');
  return kept;
}

export const removeAgency = (alias: string) =>
  call<unknown>('DELETE', `/api/admin/agencies/${encodeURIComponent(alias)}`);
