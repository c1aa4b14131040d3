// The REST calls of the organization screens (README's API table for /api/orgs, spec §7), their answers'
// shapes, and one error type carrying the status and the server's own message. Every call is member-only,
// so each one asks the session for a fresh access token first and sends it as x-auth-token.
import { freshToken } from '@rotunda/session';
import type { HistoryEntry } from '@rotunda/ui';

/** An organization as the gateway answers it (README: `organization`); null where not given. */
export interface Organization {
  organization_id: number;
  organization_name: string;
  group_id: number;
  group_type: string;
  street_address: string | null;
  suite_number: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  website: string | null;
  main_phone: string | null;
  logo: string | null;
  lobby_filer_id: string | null;
  linkedin_url: string | null;
  facebook_url: string | null;
  youtube_url: string | null;
  threads_url: string | null;
  twitter_url: string | null;
  instagram_url: string | null;
  tiktok_url: string | null;
  bluesky_url: string | null;
  /** Email domains a contributor listed (verified employer); the website's host counts as well. */
  email_domains: string[];
}

/** A division, office, board or bureau of an organization (spec §3 Division). */
export interface Division {
  division_id: number;
  division_name: string;
  division_type: string;
  active_division: boolean;
  organization_id: number;
  street_address: string | null;
  suite_number: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  division_phone: string | null;
  website: string | null;
}

/** GET /api/orgs/:id: the organization with its divisions, active or not. */
export interface OrganizationDetail extends Organization {
  Divisions: Division[];
}

export interface Group {
  group_id: number;
  group_name: string;
}

export interface OrganizationPage {
  organizations: Organization[];
  total: number;
  offset: number;
  limit: number;
}

/** One entry of the organization-colleagues answer (spec §3 Colleague entry). */
export interface Colleague {
  profile_id: string | number;
  title: string | null;
  city: string | null;
  state: string | null;
  Division: { division_id: number; division_name: string } | null;
  ProfileInfo: {
    profile_id: string | number;
    first_name: string;
    last_name: string;
    profile_picture: string | null;
    other_phone: string | null;
    work_email: string | null;
  } | null;
}

/** The fields the Edit Organization form sends (README: update-organization's `…fields`). */
export type OrganizationUpdate = {
  organization_id: number;
  organization_name: string;
  /** Replaces the listed email domains; left out, they are kept. */
  email_domains?: string[];
} & Partial<Record<EditableField, string>>;

export type EditableField =
  | 'street_address'
  | 'suite_number'
  | 'city'
  | 'state'
  | 'zip_code'
  | 'website'
  | 'main_phone'
  | 'lobby_filer_id'
  | 'linkedin_url'
  | 'facebook_url'
  | 'youtube_url'
  | 'threads_url'
  | 'twitter_url'
  | 'instagram_url'
  | 'tiktok_url'
  | 'bluesky_url';

/** A call that did not answer 2xx: its status and, when the body had one, the server's message. */
export class ApiError extends Error {
  readonly status: number;
  /** The first `errors[].msg` of the answer (README: errors are `{ errors: [{ msg }] }`), if any. */
  readonly serverMessage: string | null;

  constructor(method: string, path: string, status: number, serverMessage: string | null) {
    super(`${method} ${path} answered ${status}${serverMessage ? `: ${serverMessage}` : ''}`);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

async function serverMessageOf(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { errors?: { msg?: unknown }[] };
    const msg = body.errors?.[0]?.msg;
    return typeof msg === 'string' && msg.trim() !== '' ? msg : null;
  } catch {
    return null;
  }
}

async function call<T>(method: 'GET' | 'POST', path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('accept', 'application/json');
  const token = await freshToken();
  if (token) headers.set('x-auth-token', token);
  const response = await fetch(path, { ...init, method, headers });
  if (!response.ok) throw new ApiError(method, path, response.status, await serverMessageOf(response));
  return (await response.json()) as T;
}

const postJson = <T>(path: string, body: unknown, signal?: AbortSignal) =>
  call<T>('POST', path, {
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    ...(signal && { signal }),
  });

/** Contributors only: the curation history of the organization, newest first. */
export async function fetchOrganizationHistory(
  organizationId: number,
  signal: AbortSignal,
): Promise<HistoryEntry[]> {
  const answer = await call<unknown>('GET', `/api/history/organization/${organizationId}`, { signal });
  if (!Array.isArray(answer)) throw new Error('history did not answer a list');
  return answer as HistoryEntry[];
}

/** Page size of the organization list (spec §9: 30 at first, growing by 30). */
export const PAGE_SIZE = 30;

export interface ListQuery {
  search: string;
  group: string;
  offset: number;
  limit?: number;
}

/** One page of the list, searched (every word in the name) and filtered by group on the server. */
export function fetchOrganizationPage(query: ListQuery, signal?: AbortSignal): Promise<OrganizationPage> {
  const params = new URLSearchParams({
    search: query.search,
    group: query.group,
    offset: String(query.offset),
    limit: String(query.limit ?? PAGE_SIZE),
  });
  return call<OrganizationPage>('GET', `/api/orgs/?${params}`, signal ? { signal } : {});
}

export function fetchGroups(signal?: AbortSignal): Promise<Group[]> {
  return call<Group[]>('GET', '/api/orgs/organization-groups', signal ? { signal } : {});
}

export function fetchOrganization(id: string, signal?: AbortSignal): Promise<OrganizationDetail> {
  return call<OrganizationDetail>('GET', `/api/orgs/${encodeURIComponent(id)}`, signal ? { signal } : {});
}

/** The people of an organization, from the profile service (spec §7 Profiles). */
export async function fetchColleagues(organizationId: number, signal?: AbortSignal): Promise<Colleague[]> {
  const answer = await postJson<unknown>(
    '/api/profiles/organization-colleagues',
    { organization_id: organizationId },
    signal,
  );
  if (!Array.isArray(answer)) throw new Error('organization-colleagues did not answer a list');
  return answer as Colleague[];
}

export function updateOrganization(update: OrganizationUpdate): Promise<Organization> {
  return postJson<Organization>('/api/orgs/update-organization', update);
}

/** Uploads a logo (multipart: logo, organization_id, image_type); answers the stored logo's URL. */
export async function uploadLogo(organizationId: number, file: Blob, fileName: string): Promise<string> {
  const form = new FormData();
  form.set('organization_id', String(organizationId));
  form.set('image_type', file.type);
  form.set('logo', file, fileName);
  const answer = await call<{ url: string }>('POST', '/api/orgs/upload-organization-logo', { body: form });
  return answer.url;
}
