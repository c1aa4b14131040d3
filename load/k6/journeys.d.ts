// Types of journeys.js for the Node runner (load/src/load.ts); k6 reads the JavaScript alone.

export interface Credentials {
  email: string;
  password: string;
}

export interface Session {
  token: string;
  refreshToken: string;
  /** Epoch ms after which the session is renewed. */
  renewAt: number;
}

export interface Context {
  i: number;
  run: string;
  credentials: Credentials;
  session?: Session;
  saved: Record<string, unknown>;
}

export interface Step {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: (ctx: Context) => string;
  body?: (ctx: Context) => unknown;
  member?: boolean;
  expect: number;
  check?: (json: unknown, ctx: Context) => boolean;
  keep?: (json: unknown, ctx: Context) => void;
  when?: (ctx: Context) => boolean;
}

export interface Journey {
  member: boolean;
  steps: Step[];
  leftovers?: { find: Step; postIds: (json: unknown, ctx: Context) => number[] };
}

export type JourneyName = 'visitor-feed' | 'member-directory' | 'member-posts' | 'login';

export const DEMO_MEMBER: Credentials;
/** What members do on the directory screen (the benchmarks' directory searches too). */
export const DIRECTORY_QUERIES: Record<string, string>[];
export const SIGN_IN: Step;
export const SIGN_OUT: Step;
export const JOURNEYS: Record<JourneyName, Journey>;
export function sessionOf(json: unknown, now: number): Session;
export function runWord(): string;
export function judge(step: Step, status: number, json: unknown, ctx: Context): boolean;
