// Test helper: every REST route the gateway serves, read from its source (gateway/src/app.ts mounts the routers of
// gateway/src/routes/*.ts and identity/*.ts), so the security suite covers a route the day it is added and fails
// when a route appears that its tables do not list. Also the first specification's spellings of the calls
// (docs/product.md#7-the-calls-it-makes) that differ from the gateway's own (trailing slashes), which clients
// send as they are.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  method: Method;
  /** The path as Express matches it, with its parameters: '/api/profiles/claim/:profile_id', '/media/{*key}'. */
  path: string;
}

const GATEWAY_SOURCE = fileURLToPath(new URL('../../../gateway/src/', import.meta.url));

/**
 * Where app.ts mounts each router factory. A factory app.ts calls that is missing here fails routeTable(): a
 * new router must be placed before the suite can cover it. The web router serves the apps' pages, not REST.
 */
const MOUNTS: Record<string, string | null> = {
  healthRouter: '/healthz',
  readyRouter: '/readyz',
  newsRouter: '/api/news',
  orgsRouter: '/api/orgs',
  profilesRouter: '/api/profiles',
  issuesRouter: '/api/issues',
  postsRouter: '/api/posts',
  // /api/reports and /api/moderation/* (ADR 0041).
  moderationRouter: '/api',
  // Notifications, their live count and preferences, one-click unsubscribe; your data (ADR 0042).
  notificationsRouter: '/api/notifications',
  meRouter: '/api/me',
  historyRouter: '/api/history',
  // Access lists, roles and their log, for administrators (docs/product.md#access-administration).
  adminRouter: '/api/admin',
  authRouter: '/auth',
  realmsRouter: '/realms',
  mediaRouter: '/media',
  webRouter: null,
  // The public square's and each post's page, drawn by the gateway (ADR 0053): pages, not REST.
  pagesRouter: null,
};

/** Routers a factory builds inside itself and mounts under a parameter (realms.ts: '/:realm'). */
const INNER_MOUNTS: Record<string, string> = { realmRouter: '/:realm' };

const ROUTE_CALL = /\b(\w+)\.(get|post|put|patch|delete)\(\s*'([^']*)'/g;
const FACTORY = /^export function (\w+Router)\(/gm;

/** Every route of the gateway, in source order: app.ts's own, then each mounted router's. */
export function routeTable(): Route[] {
  const app = readFileSync(`${GATEWAY_SOURCE}app.ts`, 'utf8');
  const used = new Set([...app.matchAll(/\b(\w+Router)\(/g)].map((match) => match[1] as string));
  const unplaced = [...used].filter((factory) => !(factory in MOUNTS));
  if (unplaced.length > 0)
    throw new Error(`app.ts mounts routers the security suite does not place: ${unplaced.join(', ')}`);

  const routes: Route[] = [...app.matchAll(/\bapp\.(get|post|put|patch|delete)\(\s*'([^']*)'/g)].map(
    (match) => ({ method: (match[1] as string).toUpperCase() as Method, path: match[2] as string }),
  );
  // The REST routers are in routes/; the identity provider's OpenID endpoints in identity/.
  const routerFiles = ['routes/', 'identity/'].flatMap((dir) =>
    readdirSync(`${GATEWAY_SOURCE}${dir}`)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `${dir}${name}`),
  );
  for (const file of routerFiles) {
    const source = readFileSync(`${GATEWAY_SOURCE}${file}`, 'utf8');
    const factories = [...source.matchAll(FACTORY)];
    factories.forEach((factory, index) => {
      const name = factory[1] as string;
      const mount = MOUNTS[name];
      if (!used.has(name) || mount === null || mount === undefined) return;
      const body = source.slice(factory.index, factories[index + 1]?.index ?? source.length);
      for (const [, receiver, method, path] of body.matchAll(ROUTE_CALL)) {
        const inner = receiver === 'router' ? '' : INNER_MOUNTS[receiver as string];
        if (inner === undefined) throw new Error(`${file}: routes on an unplaced router ${receiver}`);
        const tail = path === '/' ? '' : (path as string);
        routes.push({
          method: (method as string).toUpperCase() as Method,
          path: `${mount}${inner}${tail}` || '/',
        });
      }
    });
  }
  return routes;
}

/**
 * The first specification's own spellings (docs/product.md#7-the-calls-it-makes) where they differ from the
 * gateway's path; Express matches both.
 */
export const SPEC_SPELLINGS: Route[] = [
  { method: 'POST', path: '/auth/update-password/' },
  { method: 'GET', path: '/api/orgs/' },
  { method: 'GET', path: '/api/issues/' },
  { method: 'POST', path: '/api/profiles/add-job/' },
  { method: 'POST', path: '/api/profiles/update-job/' },
];

export const routeKey = (route: Route): string => `${route.method} ${route.path}`;

/** A write: anything but GET. */
export const isWrite = (route: Route): boolean => route.method !== 'GET';

/** The parameters of a path, e.g. [':profile_id'] or ['{*key}']. */
export function pathParameters(path: string): string[] {
  return path.match(/:\w+|\{\*\w+\}/g) ?? [];
}

/** The path with each parameter replaced by the value `fill` gives for it, as sent (not encoded again). */
export function fillPath(path: string, fill: (parameter: string) => string): string {
  return path.replace(/:\w+|\{\*\w+\}/g, (parameter) => fill(parameter));
}
