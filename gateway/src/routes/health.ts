// GET /healthz: 200 only when every service reports SERVING (and the web builds exist when served here): the
// whole product is up (`npm start` waits for it). GET /readyz: 200 when this gateway can take requests, whatever
// the services say: an orchestrator's readiness probe, so one service down answers 503 for its own calls instead
// of taking every gateway out of rotation (and the public square, login and the rest with them). /healthz also
// says how this gateway's polls of ended sessions and of the moderation snapshot are doing: details for the
// operator, never its status (ADR 0036, 0041). A service whose database is away still serves what it can, so
// /healthz says so under `dependencies` (`{"profile": {"database": "UNAVAILABLE"}}`) and answers 503 "degraded";
// /readyz does not follow it, or every gateway would leave rotation while the database restarts (ADR 0047).
import express, { type Router } from 'express';
import type { PollHealth } from '../auth/poll.ts';
import type { DependencyReport, HealthStatus } from '../grpc/health.ts';

export interface Readiness {
  services: () => Promise<Record<string, HealthStatus>>;
  /** What each service says of the dependencies every replica shares (the database). */
  dependencies?: () => Promise<DependencyReport>;
  webBuilt?: () => boolean;
  /** The ended-sessions poll, when this gateway runs one. */
  endedSessions?: () => PollHealth;
  /** The moderation snapshot poll, when this gateway runs one. */
  moderationSnapshot?: () => PollHealth;
}

export function healthRouter(readiness: Readiness): Router {
  const router = express.Router();
  router.get('/', async (_req, res) => {
    const [services, dependencies] = await Promise.all([
      readiness.services(),
      readiness.dependencies?.() ?? ({} as DependencyReport),
    ]);
    const web = webState(readiness);
    const serving = Object.values(services).every((status) => status === 'SERVING') && web !== 'NOT_BUILT';
    const degraded = Object.values(dependencies).some(({ database }) => database === 'UNAVAILABLE');
    const ok = serving && !degraded;
    res.setHeader('Cache-Control', 'no-store');
    const endedSessions = readiness.endedSessions?.();
    const moderationSnapshot = readiness.moderationSnapshot?.();
    res.status(ok ? 200 : 503).json({
      status: ok ? 'ok' : serving ? 'degraded' : 'unavailable',
      services,
      ...(Object.keys(dependencies).length > 0 ? { dependencies } : {}),
      web,
      ...(endedSessions ? { endedSessions } : {}),
      ...(moderationSnapshot ? { moderationSnapshot } : {}),
    });
  });
  return router;
}

const webState = ({ webBuilt }: Pick<Readiness, 'webBuilt'>) =>
  webBuilt ? (webBuilt() ? 'READY' : 'NOT_BUILT') : 'NOT_SERVED';

export function readyRouter(readiness: Pick<Readiness, 'webBuilt'>): Router {
  const router = express.Router();
  router.get('/', (_req, res) => {
    const web = webState(readiness);
    const ok = web !== 'NOT_BUILT';
    res.setHeader('Cache-Control', 'no-store');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', web });
  });
  return router;
}
