// The access administration calls (DESIGN.md "Community contracts — Access administration"): who may
// register (three lists), granting and taking away roles, and the log of every change.
// Answers are read defensively; the browser checks a value before it is sent with checkAccessValue (@rotunda/rules).
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
