// Who is calling: reads the access token (x-auth-token, as the product sends it, or Authorization: Bearer),
// verifies it and puts the member on req.caller, with the suspension the moderation snapshot knows of; and the
// guards for routes that need a member or a role, or that a suspended member may not use.
import { suspendedMessage } from '@rotunda/rules';
import { ACCESS_MESSAGES, type Caller, runningSuspension } from '@rotunda/service-kit';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../http/errors.ts';
import type { ModerationSnapshotView } from './moderation-snapshot.ts';
import { TOKEN_MESSAGES, TokenRejected, type TokenVerifier } from './verify.ts';

declare global {
  namespace Express {
    interface Request {
      /** The member whose access token this request carries; undefined for a visitor. */
      caller?: Caller;
      /** The identity provider's session that token belongs to (its sid). */
      sessionId?: string;
      /** When that token expires (milliseconds since the epoch). */
      tokenExpiresAt?: number;
    }
  }
}

// The guards answer the services' own refusal texts: a visitor at a member-only call gets the product's words
// for it (docs/product.md#8-error-catalogue, 'Access Restricted. Please login.'); a member without the role
// is told which role it takes.
const ROLE_REFUSALS: Record<string, string> = {
  contributor: ACCESS_MESSAGES.contributorsOnly,
  admin: 'Administrators only',
};

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The access token a request carries, if any. x-auth-token wins: it is the header the product sends. */
export function tokenOf(req: Request): string | undefined {
  const header = req.headers['x-auth-token'];
  const given = (Array.isArray(header) ? header[0] : header)?.trim();
  if (given) return given;
  const authorization = req.headers.authorization;
  return authorization ? BEARER.exec(authorization)?.[1] : undefined;
}

/**
 * Sets req.caller from a valid token. No token: a visitor, and public calls answer as usual. A token that
 * fails verification answers 401 at once, so a member whose session ended learns it on the next call
 * instead of silently being served as a visitor. A member's running suspension (from `moderation`) rides on
 * req.caller, so the caller token every service gets carries it.
 */
export function authenticate(
  verify: TokenVerifier,
  moderation?: Pick<ModerationSnapshotView, 'suspensionOf'>,
): RequestHandler {
  return async (req, _res, next) => {
    req.caller = undefined;
    req.sessionId = undefined;
    req.tokenExpiresAt = undefined;
    const token = tokenOf(req);
    if (!token) return next();
    try {
      const { caller, sessionId, expiresAt } = await verify(token);
      const suspension = moderation?.suspensionOf(caller.userId);
      req.caller = suspension ? { ...caller, suspension } : caller;
      req.sessionId = sessionId;
      req.tokenExpiresAt = expiresAt;
    } catch (error) {
      if (error instanceof TokenRejected) {
        req.log.info({ reason: error.message }, 'access token refused');
        throw new HttpError(401, TOKEN_MESSAGES[error.reason]);
      }
      throw error;
    }
    next();
  };
}

/** The caller, for a handler behind requireMember or requireRole. */
export function callerOf(req: Request): Caller {
  if (!req.caller) throw new HttpError(401, ACCESS_MESSAGES.loginRequired);
  return req.caller;
}

export const requireMember: RequestHandler = (req, _res, next) => {
  callerOf(req);
  next();
};

export function requireRole(role: string): RequestHandler {
  return (req, _res, next) => {
    if (!callerOf(req).roles.includes(role))
      throw new HttpError(403, ROLE_REFUSALS[role] ?? `Only members with the ${role} role may do this`);
    next();
  };
}

/**
 * Every write route, right after authentication and before any other check (a suspended member's invalid form
 * is refused for the suspension, not for the form): 403 saying until when and why (ADR 0041). Visitors pass,
 * to be refused by the route's own member check. Generic in the route's parameters, so the handler after it
 * still reads them typed.
 */
export function refuseSuspended<Params>(req: Request<Params>, _res: Response, next: NextFunction): void {
  const suspension = runningSuspension(req.caller);
  if (suspension) throw new HttpError(403, suspendedMessage(suspension.until, suspension.reason));
  next();
}
